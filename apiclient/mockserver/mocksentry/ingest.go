package mocksentry

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

// ingestPath is Relay's envelope endpoint, with or without its slash.
var ingestPath = regexp.MustCompile(`^/api/(\d+)/envelope/?$`)

// ingest is what Relay answers an SDK (relay-server endpoints/common.rs and
// extractors/request_meta.rs): no key is 401, a key that is not a public
// key 400, a key that is unknown, deleted, disabled or of another project
// 403 ("event submission rejected with_reason: ProjectId"), an envelope it
// cannot read 400, else 200 with the event's id. Accepted events are
// counted per key. It reports false for other paths.
func (s *Server) ingest(w *statusWriter, r *http.Request, body []byte) bool {
	m := ingestPath.FindStringSubmatch(r.URL.Path)
	if m == nil {
		return false
	}
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusMethodNotAllowed)
		return true
	}
	key, ok := sentryKey(r)
	switch {
	case !ok:
		writeJSON(w, http.StatusUnauthorized, map[string]string{"detail": "missing authorization information"})
		return true
	case !hex32re.MatchString(key):
		writeJSON(w, http.StatusBadRequest, map[string]string{"detail": "bad sentry DSN public key"})
		return true
	}
	id, _ := strconv.ParseInt(m[1], 10, 64)
	s.mu.Lock()
	p := s.st.projectByID(id)
	var k *Key
	if p != nil {
		k = p.key(key)
	}
	s.mu.Unlock()
	if k == nil || !k.Active {
		writeJSON(w, http.StatusForbidden, map[string]string{"detail": "event submission rejected with_reason: ProjectId"})
		return true
	}
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err == nil {
			body, err = io.ReadAll(io.LimitReader(zr, maxBody))
		}
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"detail": "invalid request body"})
			return true
		}
	}
	eventID, ok := envelopeEventID(body)
	if !ok {
		writeJSON(w, http.StatusBadRequest, map[string]string{"detail": "invalid event envelope"})
		return true
	}
	s.mu.Lock()
	s.events[key]++
	n := s.events[key]
	s.mu.Unlock()
	w.note = "(event " + strconv.Itoa(n) + " for key " + key + ")"
	writeJSON(w, http.StatusOK, map[string]string{"id": eventID})
	return true
}

// sentryKey reads the public key of X-Sentry-Auth, else ?sentry_key=.
func sentryKey(r *http.Request) (string, bool) {
	if auth, ok := strings.CutPrefix(r.Header.Get("X-Sentry-Auth"), "Sentry "); ok {
		for _, part := range strings.Split(auth, ",") {
			if k, v, ok := strings.Cut(strings.TrimSpace(part), "="); ok && k == "sentry_key" {
				return v, true
			}
		}
	}
	if k := r.URL.Query().Get("sentry_key"); k != "" {
		return k, true
	}
	return "", false
}

// envelopeEventID reads an envelope's header line and its event item's id
// (the header's event_id, else the event's), or makes one.
func envelopeEventID(body []byte) (string, bool) {
	head, rest, _ := bytes.Cut(body, []byte("\n"))
	var h struct {
		EventID string `json:"event_id"`
	}
	if json.Unmarshal(bytes.TrimSpace(head), &h) != nil {
		return "", false
	}
	if h.EventID == "" {
		for len(rest) > 0 {
			var line []byte
			line, rest, _ = bytes.Cut(rest, []byte("\n"))
			var ev struct {
				EventID string `json:"event_id"`
			}
			if json.Unmarshal(line, &ev) == nil && ev.EventID != "" {
				h.EventID = ev.EventID
				break
			}
		}
	}
	if h.EventID == "" {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		h.EventID = hex.EncodeToString(b)
	}
	return strings.ReplaceAll(h.EventID, "-", ""), true
}
