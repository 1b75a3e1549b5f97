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
	w     http.ResponseWriter
	r     *http.Request
	segs  []string // path below /api/v4, split on '/', still escaped
	token Token
	user  User
}

// ServeHTTP answers in GitLab's order: route, authentication (with scope),
// project, role, parameters, then the endpoint itself.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Frame-Options", "SAMEORIGIN")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Request-Id", strconv.FormatUint(requestID.Add(1), 36))
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
	path := r.URL.EscapedPath()
	rest, ok := strings.CutPrefix(path, "/api/v4/")
	if !ok {
		writeError(w, http.StatusNotFound, "error", "404 Not Found")
		return
	}
	c := &call{w: w, r: r, segs: strings.Split(strings.TrimSuffix(rest, "/"), "/")}
	s.route(c)
}

type route struct {
	methods []string
	handle  func(*Server, *call)
	scopes  func(method string) []string
}

func apiScopes(method string) []string {
	if method == http.MethodGet || method == http.MethodHead {
		return []string{"api", "read_api"}
	}
	return []string{"api"}
}

func userScopes(string) []string { return []string{"api", "read_api", "read_user"} }

func anyScope(string) []string { return nil }

func (s *Server) route(c *call) {
	segs := c.segs
	var rt route
	switch {
	case len(segs) == 1 && segs[0] == "user":
		rt = route{[]string{"GET"}, (*Server).getUser, userScopes}
	case len(segs) == 2 && segs[0] == "personal_access_tokens" && segs[1] == "self":
		rt = route{[]string{"GET"}, (*Server).getTokenSelf, anyScope}
	case len(segs) == 1 && (segs[0] == "version" || segs[0] == "metadata"):
		rt = route{[]string{"GET"}, (*Server).getVersion, userScopes}
	case len(segs) == 1 && segs[0] == "projects":
		rt = route{[]string{"GET"}, (*Server).listProjects, apiScopes}
	case len(segs) == 2 && segs[0] == "projects":
		rt = route{[]string{"GET"}, (*Server).getProject, apiScopes}
	case len(segs) == 4 && segs[0] == "projects" && segs[2] == "error_tracking" && segs[3] == "settings":
		rt = route{[]string{"GET", "PUT", "PATCH"}, (*Server).settings, apiScopes}
	case len(segs) == 4 && segs[0] == "projects" && segs[2] == "error_tracking" && segs[3] == "client_keys":
		rt = route{[]string{"GET", "POST"}, (*Server).clientKeys, apiScopes}
	case len(segs) == 5 && segs[0] == "projects" && segs[2] == "error_tracking" && segs[3] == "client_keys":
		rt = route{[]string{"DELETE"}, (*Server).deleteClientKey, apiScopes}
	default:
		writeError(c.w, http.StatusNotFound, "error", "404 Not Found")
		return
	}
	method := c.r.Method
	if method == http.MethodHead {
		method = http.MethodGet
	}
	allowed := false
	for _, m := range rt.methods {
		allowed = allowed || m == method
	}
	if !allowed {
		c.w.Header().Set("Allow", strings.Join(rt.methods, ", "))
		writeError(c.w, http.StatusMethodNotAllowed, "error", "405 Not Allowed")
		return
	}
	if !s.authenticate(c, rt.scopes(method)) {
		return
	}
	rt.handle(s, c)
}

// authenticate finds the token in any place GitLab accepts one and checks it.
func (s *Server) authenticate(c *call, scopes []string) bool {
	r := c.r
	raw := r.Header.Get("PRIVATE-TOKEN")
	if raw == "" {
		raw = r.URL.Query().Get("private_token")
	}
	if raw == "" {
		if a := r.Header.Get("Authorization"); len(a) > 7 && strings.EqualFold(a[:7], "bearer ") {
			raw = strings.TrimSpace(a[7:])
		}
	}
	if raw == "" {
		raw = r.URL.Query().Get("access_token")
	}
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
	if scopes != nil && !hasAny(tok.Scopes, scopes) {
		writeJSON(c.w, http.StatusForbidden, map[string]string{
			"error":             "insufficient_scope",
			"error_description": "The request requires higher privileges than provided by the access token.",
			"scope":             strings.Join(scopes, " "),
		})
		return false
	}
	c.token, c.user = tok, user
	return true
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
func (s *Server) project(c *call, needMaintainer bool) *Project {
	ref, err := url.PathUnescape(c.segs[1])
	var p *Project
	if err == nil {
		switch {
		case numericID.MatchString(ref):
			id, _ := strconv.ParseInt(ref, 10, 64)
			p = s.st.byID[id]
		case strings.Contains(ref, "/"):
			p = s.st.byPath[ref]
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
