// Package contract replays GitLab's answers, shaped by GitLab's entities
// as its source declares them (not by the mock), for tests: errtrack's
// commands run against them, and the mock is checked against them, so the
// mock cannot drift from the server unnoticed. It is a test helper: no
// production code imports it.
//
// A fixture set is a folder of testdata/; each file is one answer and the
// requests it answers. "$project" and "$group" objects are expanded from
// the entities in testdata/entities (which fields a role sees, which views
// hold which fields); {{base}}, {{hostport}} and {{host}} become the
// replay server's address.
package contract

import (
	"embed"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
)

//go:embed testdata
var files embed.FS

// Exchange is one fixture: the requests it answers and GitLab's answer.
type Exchange struct {
	Name     string            `json:"-"`
	Source   string            `json:"source"`
	Aux      bool              `json:"aux"` // not a contract row: not compared with the mock
	AnyQuery bool              `json:"any_query"`
	Requests []Request         `json:"requests"`
	Status   int               `json:"status"`
	Headers  map[string]string `json:"headers"`
	Body     any               `json:"body"` // expanded
}

// Request is what an exchange answers: the method, the path as sent
// (escaped) and the query, page and per_page aside.
type Request struct {
	Method string            `json:"method"`
	Path   string            `json:"path"`
	Query  map[string]string `json:"query"`
}

// Load reads the fixture set, its entities expanded.
func Load(set string) ([]Exchange, error) {
	ents, err := loadEntities()
	if err != nil {
		return nil, err
	}
	dir := path.Join("testdata", set)
	entries, err := files.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("fixture set %s: %w", set, err)
	}
	var out []Exchange
	for _, e := range entries {
		b, err := files.ReadFile(path.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		var ex Exchange
		if err := json.Unmarshal(b, &ex); err != nil {
			return nil, fmt.Errorf("%s/%s: %w", set, e.Name(), err)
		}
		ex.Name = set + "/" + strings.TrimSuffix(e.Name(), ".json")
		if ex.Body, err = ents.expand(ex.Body); err != nil {
			return nil, fmt.Errorf("%s: %w", ex.Name, err)
		}
		out = append(out, ex)
	}
	return out, nil
}

// Server answers the requests of a fixture set; any other request under
// /api/v4/ is GitLab's catch-all 404 and is remembered (Unmatched), so a
// test can tell a missing fixture from an answer.
type Server struct {
	exchanges []Exchange
	mu        sync.Mutex
	unmatched []string
}

// NewServer loads set.
func NewServer(set string) (*Server, error) {
	ex, err := Load(set)
	if err != nil {
		return nil, err
	}
	return &Server{exchanges: ex}, nil
}

// Unmatched lists the API requests no fixture answered, as "GET /path?query".
func (s *Server) Unmatched() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.unmatched...)
}

// Match finds the exchange answering r.
func Match(exchanges []Exchange, method string, u *url.URL) (Exchange, bool) {
	q := u.Query()
	q.Del("page")
	q.Del("per_page")
	for _, ex := range exchanges {
		for _, req := range ex.Requests {
			if req.Method != method || req.Path != u.EscapedPath() {
				continue
			}
			if ex.AnyQuery || SameQuery(q, req.Query) {
				return ex, true
			}
		}
	}
	return Exchange{}, false
}

// SameQuery: q is exactly want's parameters, with want's values.
func SameQuery(q url.Values, want map[string]string) bool {
	if len(q) != len(want) {
		return false
	}
	for k, v := range want {
		if q.Get(k) != v {
			return false
		}
	}
	return true
}

// ServeHTTP replays the matching answer, with GitLab's paging headers on a
// list (one page).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ex, ok := Match(s.exchanges, r.Method, r.URL)
	if !ok {
		if strings.HasPrefix(r.URL.Path, "/api/v4/") {
			s.mu.Lock()
			s.unmatched = append(s.unmatched, r.Method+" "+r.URL.RequestURI())
			s.mu.Unlock()
		}
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "404 Not Found"})
		return
	}
	body := Fill(ex.Body, "http://"+r.Host)
	for k, v := range ex.Headers {
		w.Header().Set(k, v)
	}
	if list, ok := body.([]any); ok && ex.Status == http.StatusOK {
		perPage := 20
		if n, err := strconv.Atoi(r.URL.Query().Get("per_page")); err == nil && n > 0 {
			perPage = min(n, 100)
		}
		h := w.Header()
		h.Set("X-Page", "1")
		h.Set("X-Per-Page", strconv.Itoa(perPage))
		h.Set("X-Total", strconv.Itoa(len(list)))
		h.Set("X-Total-Pages", "1")
		h.Set("X-Next-Page", "")
		h.Set("X-Prev-Page", "")
	}
	writeJSON(w, ex.Status, body)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// Fill puts the server's address in every string of v: {{base}}
// (scheme://host:port), {{hostport}} and {{host}}.
func Fill(v any, base string) any {
	hostport := strings.TrimPrefix(strings.TrimPrefix(base, "http://"), "https://")
	host := hostport
	if i := strings.LastIndexByte(host, ':'); i > 0 && !strings.HasSuffix(host, "]") {
		host = host[:i]
	}
	r := strings.NewReplacer("{{base}}", base, "{{hostport}}", hostport, "{{host}}", host)
	var fill func(any) any
	fill = func(v any) any {
		switch x := v.(type) {
		case string:
			return r.Replace(x)
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = fill(e)
			}
			return out
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				out[k] = fill(e)
			}
			return out
		}
		return v
	}
	return fill(v)
}

// sortedKeys is m's keys in order, for messages that do not change.
func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
