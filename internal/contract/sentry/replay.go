// Package sentry replays Sentry's and Relay's answers, shaped by their
// source (getsentry/sentry's serializers and endpoints, getsentry/relay's
// routes and rejections), for tests, as internal/contract does for GitLab:
// errtrack's commands run against them, and the mock Sentry is checked
// against them, so the mock cannot drift from Sentry unnoticed. It is a
// test helper: no production code imports it.
//
// A fixture set is a folder of testdata/; each file is one answer and the
// requests it answers, each file citing the source it was shaped from.
// {{base}} and {{hostport}} in an answer become the replay server's
// address: its DSNs point at it, so ingestion is answered there too.
package sentry

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"path"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/errtrack/errtrack/internal/contract"
)

//go:embed testdata
var files embed.FS

// The world the fixtures describe, as the mock Sentry seeds it: the
// organisation demo, its project legacy-api (ID 2) and two keys.
const (
	// Token is the user auth token the fixtures answer (scopes as the
	// index fixture says); ExpiredToken and UnknownToken get Sentry's 401s.
	Token        = "sntryu_contract0000000000000000000000000000000000000000000000000"
	ExpiredToken = "sntryu_expired00000000000000000000000000000000000000000000000000"
	UnknownToken = "sntryu_unknown00000000000000000000000000000000000000000000000000"
	// OrgCIToken is an organisation auth token of demo, scope org:ci (no
	// user), as the mock Sentry's TokenOrgCI.
	OrgCIToken = "sntrys_demo-org-ci-token"
	// Production and Staging are the project's keys' public keys;
	// Staging has a rate limit of 1000 an hour, and is past it at ingestion.
	Production = "0c3d5a7b9e1f2a4c6e8b0d2f4a6c8e0b"
	Staging    = "5f1c1f4a3a6e4b1d8f0e2a9c7b6d5e4f"
	// Created is the public key of the key "New" the create fixture makes.
	Created = "9a8b7c6d5e4f30211203405566778899"
	// Default is the key Sentry makes with a new project (the migrate
	// set's demo/demo-web-shop, project ID 4).
	Default = "3e7d1a5c9b2f48e6a0c4d8f2b6e1a9c3"
	// Unknown is a public key Relay refuses (403).
	Unknown = "ffffffffffffffffffffffffffffffff"
)

// Exchange is one fixture: the requests it answers and Sentry's answer.
type Exchange struct {
	Name   string `json:"-"`
	Source string `json:"source"`
	Aux    bool   `json:"aux"` // not compared with the mock
	// After names an exchange of the set (its file name) that must have
	// been served first: the answer of a state that request made (a
	// listing after a create). Once it has, this exchange answers before
	// one without After.
	After    string            `json:"after"`
	Requests []Request         `json:"requests"`
	Status   int               `json:"status"`
	Headers  map[string]string `json:"headers"`
	Body     any               `json:"body"` // nil: no body (204, 302)
}

// Request is what an exchange answers: the method, the path as sent, the
// query (per_page aside), the token (Authorization: Bearer), the DSN's
// public key (X-Sentry-Auth), and fields the JSON body must hold.
type Request struct {
	Method    string            `json:"method"`
	Path      string            `json:"path"`
	Query     map[string]string `json:"query"`
	Token     string            `json:"token"`
	SentryKey string            `json:"sentry_key"`
	Body      map[string]any    `json:"body"`
}

// Sets names the fixture sets: keys (a Sentry-backed project's keys and
// ingestion), gone (its Sentry project deleted), migrate (a migration's
// new Sentry project).
func Sets() []string {
	entries, _ := files.ReadDir("testdata")
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// Load reads a fixture set.
func Load(set string) ([]Exchange, error) {
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
		out = append(out, ex)
	}
	return out, nil
}

// Server answers the requests of a fixture set. Any other request is
// remembered (Unmatched) and answered 404, so a test fails on a request
// Sentry's answers do not cover instead of passing on a guess.
type Server struct {
	exchanges []Exchange
	mu        sync.Mutex
	unmatched []string
	served    map[string]bool
}

// NewServer loads set.
func NewServer(set string) (*Server, error) {
	ex, err := Load(set)
	if err != nil {
		return nil, err
	}
	return &Server{exchanges: ex, served: map[string]bool{}}, nil
}

// Unmatched lists the requests no fixture answered, as "GET /path?query".
func (s *Server) Unmatched() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.unmatched...)
}

// Match finds the exchange answering a request, served naming the
// exchanges already served (for After).
func Match(exchanges []Exchange, served map[string]bool, r *http.Request, body []byte) (Exchange, bool) {
	q := r.URL.Query()
	q.Del("per_page")
	token, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	key := sentryKey(r)
	set := ""
	if len(exchanges) > 0 {
		set, _, _ = strings.Cut(exchanges[0].Name, "/")
	}
	ordered := make([]Exchange, 0, len(exchanges))
	for _, ex := range exchanges {
		if ex.After != "" && served[set+"/"+ex.After] {
			ordered = append(ordered, ex)
		}
	}
	for _, ex := range exchanges {
		if ex.After == "" {
			ordered = append(ordered, ex)
		}
	}
	for _, ex := range ordered {
		for _, req := range ex.Requests {
			if req.Method == r.Method && req.Path == r.URL.EscapedPath() && contract.SameQuery(q, req.Query) &&
				(req.Token == "" || req.Token == token) && (req.SentryKey == "" || req.SentryKey == key) && holds(body, req.Body) {
				return ex, true
			}
		}
	}
	return Exchange{}, false
}

// holds: the JSON body has each of want's fields with its value.
func holds(body []byte, want map[string]any) bool {
	if len(want) == 0 {
		return true
	}
	var got map[string]any
	if json.Unmarshal(body, &got) != nil {
		return false
	}
	for k, v := range want {
		if g, ok := got[k]; !ok || !reflect.DeepEqual(g, v) {
			return false
		}
	}
	return true
}

// sentryKey is the public key of X-Sentry-Auth, else ?sentry_key=.
func sentryKey(r *http.Request) string {
	if auth, ok := strings.CutPrefix(r.Header.Get("X-Sentry-Auth"), "Sentry "); ok {
		for _, part := range strings.Split(auth, ",") {
			if k, v, ok := strings.Cut(strings.TrimSpace(part), "="); ok && k == "sentry_key" {
				return v
			}
		}
	}
	return r.URL.Query().Get("sentry_key")
}

// ServeHTTP replays the matching answer.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	s.mu.Lock()
	ex, ok := Match(s.exchanges, s.served, r, body)
	if ok {
		s.served[ex.Name] = true
	} else {
		s.unmatched = append(s.unmatched, r.Method+" "+r.URL.RequestURI())
	}
	s.mu.Unlock()
	if !ok {
		http.Error(w, "no fixture answers this request", http.StatusNotFound)
		return
	}
	base := "http://" + r.Host
	for k, v := range ex.Headers {
		w.Header().Set(k, Fill(v, base).(string))
	}
	if ex.Body == nil {
		w.WriteHeader(ex.Status)
		return
	}
	b, _ := json.Marshal(Fill(ex.Body, base))
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(ex.Status)
	_, _ = io.Copy(w, bytes.NewReader(b))
}

// Fill puts the server's address in every string of v, as GitLab's
// fixtures have it: {{base}} (scheme://host:port) and {{hostport}}.
func Fill(v any, base string) any { return contract.Fill(v, base) }
