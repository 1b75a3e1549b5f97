package mocksentry

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

var (
	// ingestPath is Relay's envelope and store endpoints, each with its
	// slash: relay-server endpoints/mod.rs routes no other form.
	ingestPath = regexp.MustCompile(`^/api/(\d+)/(envelope|store)/$`)
	// unslashedIngest is what Relay forwards to Sentry's web app
	// (.fallback(forward::forward) in the same mod.rs).
	unslashedIngest = regexp.MustCompile(`^/api/\d+/(envelope|store)$`)
	// webAPIRedirect is Sentry's web URL pattern that sends a non-API
	// /api/… path to the API settings page (src/sentry/web/urls.py).
	webAPIRedirect = regexp.MustCompile(`^/api/[^0]+/`)
)

// rateLimitedDetail is BadStoreRequest::RateLimited's text, Relay's body
// for a 429 (relay-server endpoints/common.rs).
const rateLimitedDetail = "Sentry dropped data due to a quota or internal rate limit being reached. This will not affect your application. See https://docs.sentry.io/product/accounts/quotas/ for more information."

// ingest is what Relay answers an SDK (relay-server endpoints/common.rs
// and extractors/request_meta.rs): no key is 401, a key that is not a
// public key 400, a key that is unknown, deleted, disabled or of another
// project 403 ("event submission rejected with_reason: ProjectId"), a key
// past its own rate limit 429 with Retry-After and X-Sentry-Rate-Limits,
// a body it cannot read 400, else 200 with the event's id. Accepted
// events are counted per key. An unslashed envelope or store path gets
// what Sentry's web app answers it. It reports false for other paths.
func (s *Server) ingest(w *statusWriter, r *http.Request, body []byte) bool {
	if unslashedIngest.MatchString(r.URL.Path) {
		webApp(w, r)
		return true
	}
	m := ingestPath.FindStringSubmatch(r.URL.Path)
	if m == nil {
		return false
	}
	switch r.Method {
	case http.MethodPost:
	case http.MethodOptions:
		// The store routes' CORS layer answers a preflight itself
		// (relay-server middlewares/cors.rs, tower-http's CorsLayer).
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		h.Set("Access-Control-Allow-Methods", "POST")
		h.Set("Access-Control-Allow-Headers", "x-sentry-auth,x-requested-with,x-forwarded-for,origin,referer,accept,content-type,authentication,authorization,content-encoding,transfer-encoding")
		h.Set("Access-Control-Max-Age", "3600")
		w.WriteHeader(http.StatusOK)
		return true
	default:
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
	body, err := decodeBody(r, body, m[2] == "store")
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]string{"detail": "invalid request body"})
		return true
	}
	var eventID string
	if m[2] == "store" {
		eventID, ok = storeEventID(body)
	} else {
		eventID, ok = envelopeEventID(body)
	}
	if !ok {
		detail := "invalid event envelope"
		if m[2] == "store" {
			detail = "invalid JSON data"
		}
		writeJSON(w, http.StatusBadRequest, map[string]string{"detail": detail})
		return true
	}
	if wait := s.keyLimited(k); wait > 0 {
		// The key's quota (Sentry's quotas/redis.py: id "k", scope key,
		// the error categories, reason key_quota), in Relay's header form
		// (relay-server utils/rate_limits.rs format_rate_limits).
		secs := strconv.Itoa(wait)
		w.Header().Set("Retry-After", secs)
		w.Header().Set("X-Sentry-Rate-Limits", secs+":default;error;security:key:key_quota")
		w.note = "(key " + key + " over its rate limit)"
		writeJSON(w, http.StatusTooManyRequests, map[string]string{"detail": rateLimitedDetail})
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

// keyLimited counts an event against the key's rate limit, in Sentry's
// fixed windows (timestamp / window), and reports the seconds until the
// window ends when the key is past its count, else 0. Sentry also
// shifts each window by the organisation's id modulo its length.
func (s *Server) keyLimited(k *Key) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if k.RateCount <= 0 || k.RateWindow <= 0 {
		return 0
	}
	now := s.now().Unix()
	slot := now / int64(k.RateWindow)
	if k.rateSlot != slot {
		k.rateSlot, k.rateUsed = slot, 0
	}
	if k.rateUsed >= int64(k.RateCount) {
		return int((slot+1)*int64(k.RateWindow) - now)
	}
	k.rateUsed++
	return 0
}

// webApp is Sentry's web app's answer to a path Relay forwarded: a
// RedirectView (302, not followed by SDKs as an acceptance) to the API
// settings page for /api/X/… where X holds no 0, else Django's 404.
// Nothing is ingested either way.
func webApp(w *statusWriter, r *http.Request) {
	w.note = "(not ingestion: Relay forwards this path to Sentry's web app)"
	if webAPIRedirect.MatchString(r.URL.Path) {
		w.Header().Set("Location", "/settings/account/api/")
		w.WriteHeader(http.StatusFound)
		return
	}
	w.Header().Set("Content-Type", "text/html")
	w.WriteHeader(http.StatusNotFound)
	_, _ = io.WriteString(w, "<h1>Not Found</h1>")
}

// decodeBody undoes Content-Encoding (gzip, deflate); a store body may
// also be base64 of zlib, as older SDKs sent it (Relay's store endpoint
// decodes both).
func decodeBody(r *http.Request, body []byte, store bool) ([]byte, error) {
	switch r.Header.Get("Content-Encoding") {
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(io.LimitReader(zr, maxBody))
	case "deflate":
		zr, err := zlib.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(io.LimitReader(zr, maxBody))
	}
	if t := bytes.TrimSpace(body); store && len(t) > 0 && t[0] != '{' {
		raw, err := base64.StdEncoding.DecodeString(string(t))
		if err != nil {
			return nil, err
		}
		zr, err := zlib.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(io.LimitReader(zr, maxBody))
	}
	return body, nil
}

// sentryKey reads the public key of X-Sentry-Auth or of an Authorization
// header of the Sentry scheme (request_meta.rs auth_from_parts takes
// either), else ?sentry_key=. An API token (Authorization: Bearer) is no
// credential at ingestion: a request with only that has no key.
func sentryKey(r *http.Request) (string, bool) {
	for _, h := range []string{"X-Sentry-Auth", "Authorization"} {
		v := r.Header.Get(h)
		if len(v) < 7 || !strings.EqualFold(v[:7], "sentry ") {
			continue
		}
		for _, part := range strings.Split(v[7:], ",") {
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

// storeEventID reads a store body's event (one JSON object) and its id,
// or makes one.
func storeEventID(body []byte) (string, bool) {
	var ev struct {
		EventID string `json:"event_id"`
	}
	if json.Unmarshal(bytes.TrimSpace(body), &ev) != nil {
		return "", false
	}
	if ev.EventID == "" {
		ev.EventID = newEventID()
	}
	return strings.ReplaceAll(ev.EventID, "-", ""), true
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
		h.EventID = newEventID()
	}
	return strings.ReplaceAll(h.EventID, "-", ""), true
}

func newEventID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
