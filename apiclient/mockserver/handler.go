package mockserver

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var (
	numericID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?\d+$`) })
	requestID atomic.Uint64
)

// call is one request on its way through the checks.
type call struct {
	w      http.ResponseWriter
	r      *http.Request
	segs   []string // path below /api/v4, split on '/', still escaped
	method string   // HEAD is GET
	body   []byte   // read in full before anything else
	params map[string]param
	token  Token
	user   User
}

// ServeHTTP answers in GitLab's order: the route (a path or method the
// release lacks is the catch-all 404, before anything else), the request's
// format and body (415, 400), authentication and scope, sudo, the project,
// the role, the parameters, then the endpoint itself.
func (s *Server) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	w := s.logged(rw, r)
	defer w.done()
	h := w.Header()
	h.Set("X-Frame-Options", "SAMEORIGIN")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Request-Id", strconv.FormatUint(requestID.Add(1), 36))
	// The body is read before --latency delays the answer: the delay is the
	// server's, and must not eat into the time the client has to send it.
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	if s.opts.Latency > 0 {
		t := time.NewTimer(s.opts.Latency)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	if s.throttled(w, r) {
		return
	}
	if s.injectFault(w) {
		return
	}
	if s.ingest(w, r, body) {
		return
	}
	rest, ok := strings.CutPrefix(r.URL.EscapedPath(), "/api/v4/")
	if !ok {
		catchAll(w)
		return
	}
	method := r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	c := &call{w: w, r: r, segs: splitPath(rest), method: method, body: body}
	if f := r.URL.Query().Get("format"); f != "" && f != "json" && f != "txt" {
		writeError(w, http.StatusNotAcceptable, "error", "The requested format '"+f+"' is not supported.")
		return
	}
	rt, ok := s.match(c.segs)
	if !ok || !s.exists(rt) || (method != http.MethodOptions && !s.has(rt, method)) {
		catchAll(w)
		return
	}
	if !readParams(c) {
		return
	}
	// Rotating with a token already rotated revokes its whole family.
	if c.segs[len(c.segs)-1] == "rotate" && s.revokeFamily(tokenOf(c)) {
		s.persistQuietly()
		invalidToken(w, "Token was revoked. You have to re-authorize from the user.")
		return
	}
	if !s.authenticate(c, rt) {
		return
	}
	if c.sudo() {
		writeError(w, http.StatusForbidden, "message", "403 Forbidden - Must be admin to use sudo")
		return
	}
	if method == http.MethodOptions {
		s.options(c, rt)
		return
	}
	rt.handle(s, c)
}

// schemeOf is the scheme a request came in with, which DSNs and links use.
func schemeOf(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	return "http"
}

// catchAll is GitLab's answer for a route a release does not have.
func catchAll(w http.ResponseWriter) { writeError(w, http.StatusNotFound, "error", "404 Not Found") }

// splitPath splits the path below /api/v4 as Grape's router sees it:
// repeated and trailing slashes squeezed, and a .json or .txt format
// suffix on the last segment dropped.
func splitPath(rest string) []string {
	var segs []string
	for _, s := range strings.Split(rest, "/") {
		if s != "" {
			segs = append(segs, s)
		}
	}
	if n := len(segs); n > 0 {
		for _, ext := range []string{".json", ".txt"} {
			if t := strings.TrimSuffix(segs[n-1], ext); t != segs[n-1] && t != "" {
				segs[n-1] = t
				break
			}
		}
	}
	return segs
}

// project resolves segs[1] and checks visibility and, when needMaintainer,
// the role. It writes the error and returns nil when the call must stop.
// A path is looked up without regard to case, as GitLab falls back to.
func (s *Server) project(c *call, needMaintainer bool) *Project {
	ref, err := url.PathUnescape(c.segs[1])
	var p *Project
	if err == nil {
		switch {
		case numericID().MatchString(ref):
			id, _ := strconv.ParseInt(ref, 10, 64)
			p = s.st.byID[id]
		case strings.Contains(ref, "/"):
			p = s.st.byPath[strings.ToLower(ref)]
		}
	}
	level := 0
	if p != nil {
		level = s.st.access(c.user.ID, p)
	}
	if p == nil || (level == 0 && !p.Public) {
		writeError(c.w, http.StatusNotFound, "message", "404 Project Not Found")
		return nil
	}
	if needMaintainer && level < maintainer {
		writeError(c.w, http.StatusForbidden, "message", "403 Forbidden")
		return nil
	}
	return p
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"message":"500 Internal Server Error"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// writeEncoded writes JSON already encoded; nil is a 500.
func writeEncoded(w http.ResponseWriter, status int, b []byte) {
	if b == nil {
		status, b = http.StatusInternalServerError, []byte(`{"message":"500 Internal Server Error"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func writeError(w http.ResponseWriter, status int, key, msg string) {
	writeJSON(w, status, map[string]string{key: msg})
}
