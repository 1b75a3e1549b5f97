package mockserver

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Ingestion paths of a DSN's project: the current backend's (16.1+) and
// GitLab's own collector (14.1 until its removal in 16.1).
var ingestPath = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(/errortracking/api/v1/projects|/api/v4/error_tracking/collector)/api/(\d+)/(envelope|store)/?$`)
})

// ingest answers what a Sentry SDK sends to a DSN of the release's form.
// It reports false for other paths, the other form's included, which the
// catch-all then answers.
func (s *Server) ingest(w *loggedWriter, r *http.Request, body []byte) bool {
	m := ingestPath().FindStringSubmatch(r.URL.Path)
	if m == nil {
		return false
	}
	// A release serves the path its DSNs name; the collector is a GitLab
	// route, POST only, so anything else there is the catch-all.
	collector := m[1] == "/api/v4/error_tracking/collector"
	served := s.release.atLeast(sinceCurrentDSN)
	if collector {
		served = !served && s.release.atLeast(sinceCollector) && r.Method == http.MethodPost
	}
	if !served {
		return false
	}
	if r.Method != http.MethodPost {
		writeError(w, http.StatusMethodNotAllowed, "detail", "method not allowed")
		return true
	}
	id, _ := strconv.ParseInt(m[2], 10, 64)
	parse := parseEnvelope
	if m[3] == "store" {
		parse = parseStore
	}
	if collector {
		s.collect(w, r, id, body, parse)
		return true
	}
	// The backend asks GitLab whether the key may send: the feature flag on
	// and an active key of the project. The settings switch is not asked.
	key := sentryKey(r)
	s.mu.RLock()
	p := s.st.byID[id]
	ok := key != "" && p != nil && s.integratedOn(p) && p.activeKey(key)
	s.mu.RUnlock()
	if !ok {
		writeError(w, http.StatusUnauthorized, "detail", "invalid key")
		return true
	}
	b, err := decodedBody(r, body)
	var env envelope
	if err == nil {
		env, err = parse(b)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "detail", err.Error())
		return true
	}
	s.received(w, id)
	writeJSON(w, http.StatusOK, map[string]string{"id": env.eventID})
	return true
}

// collect is GitLab's collector of 14.1–16.0 (gitlab-api.md §8): no user,
// the project, then integrated error tracking on and enabled, then an
// active key; it stores event items, accepts transactions and refuses the
// rest, judging by the first item.
func (s *Server) collect(w *loggedWriter, r *http.Request, id int64, body []byte, parse func([]byte) (envelope, error)) {
	const unparsable = "400 Bad request - Failed to parse sentry request"
	key := sentryKey(r)
	s.mu.RLock()
	p := s.st.byID[id]
	on := p != nil && s.integratedOn(p) && p.Settings != nil && p.Settings.Enabled && p.Settings.Integrated
	active := p != nil && p.activeKey(key)
	s.mu.RUnlock()
	switch {
	case p == nil:
		writeError(w, http.StatusNotFound, "message", "404 Project Not Found")
		return
	case !on:
		writeError(w, http.StatusNotFound, "message", "404 Not Found")
		return
	case key == "":
		writeError(w, http.StatusBadRequest, "message", unparsable)
		return
	case !active:
		writeError(w, http.StatusNotFound, "message", "404 Not Found")
		return
	}
	b, err := decodedBody(r, body)
	var env envelope
	if err == nil {
		env, err = parse(b)
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "message", unparsable)
		return
	}
	switch env.types[0] {
	case "event":
		s.received(w, id)
	case "transaction":
		w.note = "(a transaction, not stored)"
	default:
		writeError(w, http.StatusBadRequest, "message", "400 Bad Request")
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"id": env.eventID})
}

// received counts an accepted envelope for project id and says so on --log.
func (s *Server) received(w *loggedWriter, id int64) {
	s.envMu.Lock()
	s.envelopes[id]++
	n := s.envelopes[id]
	s.envMu.Unlock()
	w.note = fmt.Sprintf("(event %d for project %d)", n, id)
}

// sentryKey reads the public key from ?sentry_key=, else X-Sentry-Auth
// (the collector's order).
func sentryKey(r *http.Request) string {
	if k := r.URL.Query().Get("sentry_key"); k != "" {
		return k
	}
	auth, _ := strings.CutPrefix(r.Header.Get("X-Sentry-Auth"), "Sentry ")
	for _, part := range strings.Split(auth, ",") {
		if k, v, ok := strings.Cut(strings.TrimSpace(part), "="); ok && k == "sentry_key" {
			return v
		}
	}
	return ""
}
