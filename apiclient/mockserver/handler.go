package mockserver

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

var (
	numericID = regexp.MustCompile(`^-?\d+$`)
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
	if !ok || (method != http.MethodOptions && !s.has(rt, method)) {
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

// route is an endpoint: the release each method appeared in, its handler
// and the token scopes it accepts.
type route struct {
	methods map[string]release
	handle  func(*Server, *call)
	scopes  func(method string) []string
	// project: the endpoint is on a project, so OPTIONS checks the role.
	project bool
}

func (s *Server) match(segs []string) (route, bool) {
	n := len(segs)
	is := func(i int, v string) bool { return i < n && segs[i] == v }
	switch {
	case n == 1 && is(0, "user"):
		return route{methods: map[string]release{"GET": {}}, handle: (*Server).getUser, scopes: userScopes}, true
	case n == 2 && is(0, "personal_access_tokens") && is(1, "self"):
		return route{methods: map[string]release{"GET": sinceTokenSelf}, handle: (*Server).getTokenSelf, scopes: anyScope}, true
	case n == 3 && is(0, "personal_access_tokens") && is(1, "self") && is(2, "rotate"):
		return route{methods: map[string]release{"POST": sinceSelfRotation}, handle: (*Server).rotateToken, scopes: rotateScopes}, true
	case n == 1 && is(0, "version"):
		return route{methods: map[string]release{"GET": {}}, handle: (*Server).getVersion, scopes: userScopes}, true
	case n == 1 && is(0, "metadata"):
		return route{methods: map[string]release{"GET": sinceMetadata}, handle: (*Server).getVersion, scopes: userScopes}, true
	case n == 1 && is(0, "projects"):
		return route{methods: map[string]release{"GET": {}}, handle: (*Server).listProjects, scopes: apiScopes}, true
	case n == 2 && is(0, "projects"):
		return route{methods: map[string]release{"GET": {}}, handle: (*Server).getProject, scopes: apiScopes}, true
	case n == 4 && is(0, "projects") && is(2, "error_tracking") && is(3, "settings"):
		return route{methods: map[string]release{"GET": sinceSettingsGet, "PATCH": sincePatch, "PUT": sinceSettingsPut}, handle: (*Server).settings, scopes: apiScopes, project: true}, true
	case n == 4 && is(0, "projects") && is(2, "error_tracking") && is(3, "client_keys"):
		return route{methods: map[string]release{"GET": sinceClientKeys, "POST": sinceClientKeys}, handle: (*Server).clientKeys, scopes: apiScopes, project: true}, true
	case n == 5 && is(0, "projects") && is(2, "error_tracking") && is(3, "client_keys"):
		return route{methods: map[string]release{"DELETE": sinceClientKeys}, handle: (*Server).deleteClientKey, scopes: apiScopes, project: true}, true
	case n == 3 && is(0, "projects") && is(2, "variables"):
		return route{methods: map[string]release{"GET": {}, "POST": {}}, handle: (*Server).variables, scopes: apiScopes, project: true}, true
	case n == 4 && is(0, "projects") && is(2, "variables"):
		return route{methods: map[string]release{"GET": {}, "PUT": {}, "DELETE": {}}, handle: (*Server).variable, scopes: apiScopes, project: true}, true
	}
	return route{}, false
}

// has reports a method the route has in this release.
func (s *Server) has(rt route, method string) bool {
	since, ok := rt.methods[method]
	return ok && s.release.atLeast(since)
}

// options answers OPTIONS after authentication, as Grape does: the
// project's role decides, then 204 with the methods.
func (s *Server) options(c *call, rt route) {
	if rt.project {
		s.mu.RLock()
		p := s.project(c, true)
		s.mu.RUnlock()
		if p == nil {
			return
		}
	}
	allow := []string{"OPTIONS"}
	for _, m := range []string{"GET", "POST", "PUT", "PATCH", "DELETE"} {
		if s.has(rt, m) {
			allow = append(allow, m)
		}
	}
	if s.has(rt, "GET") {
		allow = append(allow, "HEAD")
	}
	c.w.Header().Set("Allow", strings.Join(allow, ", "))
	c.w.WriteHeader(http.StatusNoContent)
}

func apiScopes(method string) []string {
	if method == http.MethodGet || method == http.MethodOptions {
		return []string{"api", "read_api"}
	}
	return []string{"api"}
}

func userScopes(string) []string { return []string{"api", "read_api", "read_user"} }

func rotateScopes(string) []string { return []string{"api", "self_rotate"} }

func anyScope(string) []string { return nil }

// tokenOf finds the token where GitLab looks, in its order: the
// private_token parameter (query, then body), the PRIVATE-TOKEN header, a
// Bearer header, then the access_token and bearer_token parameters.
func tokenOf(c *call) string {
	r := c.r
	if p, ok := c.params["private_token"]; ok && p.str != "" {
		return p.str
	}
	if t := r.Header.Get("PRIVATE-TOKEN"); t != "" {
		return t
	}
	if a := r.Header.Get("Authorization"); len(a) > 7 && strings.EqualFold(a[:7], "bearer ") {
		return strings.TrimSpace(a[7:])
	}
	for _, name := range []string{"access_token", "bearer_token"} {
		if v := r.URL.Query().Get(name); v != "" {
			return v
		}
	}
	return ""
}

// authenticate finds the token and checks it, and its scope.
func (s *Server) authenticate(c *call, rt route) bool {
	raw := tokenOf(c)
	s.mu.RLock()
	tok, ok := s.st.Tokens[raw]
	user, uok := s.st.users[tok.UserID]
	s.mu.RUnlock()
	if raw == "" || !ok || !uok {
		writeError(c.w, http.StatusUnauthorized, "message", "401 Unauthorized")
		return false
	}
	if tok.Revoked {
		invalidToken(c.w, "Token was revoked. You have to re-authorize from the user.")
		return false
	}
	if tok.ExpiresAt != "" && tok.ExpiresAt <= s.now().UTC().Format(time.DateOnly) {
		invalidToken(c.w, "Token is expired. You can either do re-authorization or token refresh.")
		return false
	}
	if scopes := rt.scopes(c.method); scopes != nil && !hasAny(tok.Scopes, scopes) {
		writeJSON(c.w, http.StatusForbidden, map[string]string{
			"error":             "insufficient_scope",
			"error_description": "The request requires higher privileges than provided by the access token.",
			"scope":             strings.Join(rt.scopes(http.MethodGet), " "), // every scope the endpoint accepts
		})
		return false
	}
	c.token, c.user = tok, user
	return true
}

// sudo: a sudo parameter or Sudo header, even empty, from a user who is
// not an administrator (none of the demo users is).
func (c *call) sudo() bool {
	_, param := c.params["sudo"]
	_, header := c.r.Header["Sudo"]
	return param || header
}

func invalidToken(w http.ResponseWriter, desc string) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="Protected by OAuth 2.0", error="invalid_token", error_description="`+desc+`"`)
	writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_token", "error_description": desc})
}

func hasAny(have, want []string) bool {
	for _, h := range have {
		for _, w := range want {
			if h == w {
				return true
			}
		}
	}
	return false
}

// project resolves segs[1] and checks visibility and, when needMaintainer,
// the role. It writes the error and returns nil when the call must stop.
// A path is looked up without regard to case, as GitLab falls back to.
func (s *Server) project(c *call, needMaintainer bool) *Project {
	ref, err := url.PathUnescape(c.segs[1])
	var p *Project
	if err == nil {
		switch {
		case numericID.MatchString(ref):
			id, _ := strconv.ParseInt(ref, 10, 64)
			p = s.st.byID[id]
		case strings.Contains(ref, "/"):
			p = s.st.byPath[strings.ToLower(ref)]
		}
	}
	level := 0
	if p != nil {
		level = p.Members[c.user.ID]
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

func writeError(w http.ResponseWriter, status int, key, msg string) {
	writeJSON(w, status, map[string]string{key: msg})
}

// injectFault answers a share of requests with a server failure, before the
// request is looked at, so a failed request never changes anything.
func (s *Server) injectFault(w http.ResponseWriter) bool {
	if s.opts.FailRate <= 0 {
		return false
	}
	s.rngMu.Lock()
	hit := s.rng.Float64() < s.opts.FailRate
	kind := s.rng.IntN(4)
	s.rngMu.Unlock()
	if !hit {
		return false
	}
	switch kind {
	case 0:
		writeError(w, http.StatusInternalServerError, "message", "500 Internal Server Error")
	case 1:
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>\n"))
	case 2:
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("Service Unavailable\n"))
	default:
		h := w.Header()
		wait := 1
		if s.opts.FaultRetryAfter != nil {
			wait = *s.opts.FaultRetryAfter
		}
		reset := s.now().Add(time.Duration(wait) * time.Second)
		h.Set("Content-Type", "text/plain")
		h.Set("Retry-After", strconv.Itoa(wait))
		h.Set("RateLimit-Name", "throttle_authenticated_api")
		h.Set("RateLimit-Limit", "2000")
		h.Set("RateLimit-Observed", "2001")
		h.Set("RateLimit-Remaining", "0")
		h.Set("RateLimit-Reset", strconv.FormatInt(reset.Unix(), 10))
		h.Set("RateLimit-ResetTime", reset.UTC().Format(http.TimeFormat))
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte("Retry later\n"))
	}
	return true
}
