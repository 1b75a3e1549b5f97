package mockserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// Ingestion paths of a DSN's project: the current form (16.1+) and the
// collector of 14.3–16.0.
var ingestPath = regexp.MustCompile(`^(?:/errortracking/api/v1/projects|/api/v4/error_tracking/collector)/api/(\d+)/(envelope|store)/?$`)

// ingest answers what a Sentry SDK sends to a DSN: 200 for an event with an
// active key of the project, 401 for an unknown, deleted or inactive key,
// 400 for a body that is no envelope. It reports false for other paths.
func (s *Server) ingest(w *loggedWriter, r *http.Request, body []byte) bool {
	m := ingestPath.FindStringSubmatch(r.URL.Path)
	if m == nil {
		return false
	}
	if r.Method != http.MethodPost {
		writeError(w, http.StatusMethodNotAllowed, "detail", "method not allowed")
		return true
	}
	id, _ := strconv.ParseInt(m[1], 10, 64)
	key := sentryKey(r)
	s.mu.RLock()
	p := s.st.byID[id]
	ok := false
	if p != nil {
		for _, k := range p.Keys {
			ok = ok || (k.PublicKey == key && k.Active)
		}
	}
	s.mu.RUnlock()
	if key == "" || !ok {
		writeError(w, http.StatusUnauthorized, "detail", "invalid key")
		return true
	}
	eventID, err := parseEnvelope(body, m[2] == "store")
	if err != nil {
		writeError(w, http.StatusBadRequest, "detail", err.Error())
		return true
	}
	s.envMu.Lock()
	s.envelopes[id]++
	n := s.envelopes[id]
	s.envMu.Unlock()
	w.note = fmt.Sprintf("(event %d for project %d)", n, id)
	writeJSON(w, http.StatusOK, map[string]string{"id": eventID})
	return true
}

// sentryKey reads the public key from X-Sentry-Auth or ?sentry_key=.
func sentryKey(r *http.Request) string {
	for _, part := range strings.Split(strings.TrimPrefix(r.Header.Get("X-Sentry-Auth"), "Sentry "), ",") {
		if k, v, ok := strings.Cut(strings.TrimSpace(part), "="); ok && k == "sentry_key" {
			return v
		}
	}
	return r.URL.Query().Get("sentry_key")
}

// parseEnvelope reads an envelope leniently: a JSON header line, then items,
// each a JSON item header and a payload. /store takes a bare event.
func parseEnvelope(body []byte, store bool) (string, error) {
	var header struct {
		EventID string `json:"event_id"`
	}
	if store {
		if err := json.Unmarshal(body, &header); err != nil {
			return "", fmt.Errorf("the event is not JSON")
		}
		return header.EventID, nil
	}
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	if !sc.Scan() || json.Unmarshal(sc.Bytes(), &header) != nil {
		return "", fmt.Errorf("the envelope has no JSON header line")
	}
	items := 0
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var item struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(sc.Bytes(), &item) != nil || item.Type == "" {
			return "", fmt.Errorf("an envelope item has no JSON item header")
		}
		items++
		if !sc.Scan() {
			return "", fmt.Errorf("an envelope item has no payload")
		}
	}
	if items == 0 {
		return "", fmt.Errorf("the envelope holds no item")
	}
	return header.EventID, nil
}
