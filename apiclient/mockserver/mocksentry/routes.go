package mocksentry

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// call is one API request on its way through Sentry's checks.
type call struct {
	w      http.ResponseWriter
	r      *http.Request
	params []string // the route's captured slugs and IDs
	body   []byte
	token  *Token
	route  *route
}

type route struct {
	name    string // for the rate limit's key, as Sentry's view name
	pattern *regexp.Regexp
	// scopes are the token scopes each method accepts, any one of them
	// (the endpoint's permission class's scope_map); nil: no permission
	// class (the index).
	scopes  map[string][]string
	handler func(*Server, *call)
}

var slug = `([^/]+)`

// routes are Sentry's URL patterns (src/sentry/api/urls.py), with the
// permission classes' scope maps.
var routes = []*route{
	{name: "IndexEndpoint", pattern: regexp.MustCompile(`^/api/0/$`), handler: (*Server).index},
	{name: "OrganizationIndexEndpoint", pattern: regexp.MustCompile(`^/api/0/organizations/$`),
		scopes: map[string][]string{"GET": {"org:read", "org:write", "org:admin"}}, handler: (*Server).organizations},
	{name: "OrganizationProjectsEndpoint", pattern: regexp.MustCompile(`^/api/0/organizations/` + slug + `/projects/$`),
		scopes: map[string][]string{"GET": {"org:read", "org:write", "org:admin"}}, handler: (*Server).orgProjects},
	{name: "ProjectDetailsEndpoint", pattern: regexp.MustCompile(`^/api/0/projects/` + slug + `/` + slug + `/$`),
		scopes: projectScopes, handler: (*Server).projectDetails},
	{name: "ProjectKeysEndpoint", pattern: regexp.MustCompile(`^/api/0/projects/` + slug + `/` + slug + `/keys/$`),
		scopes: projectScopes, handler: (*Server).keys},
	{name: "ProjectKeyDetailsEndpoint", pattern: regexp.MustCompile(`^/api/0/projects/` + slug + `/` + slug + `/keys/` + slug + `/$`),
		scopes: projectScopes, handler: (*Server).keyDetails},
	// TeamPermission's GET (src/sentry/api/bases/team.py); the
	// organisation's teams: OrganizationPermission's GET.
	{name: "TeamDetailsEndpoint", pattern: regexp.MustCompile(`^/api/0/teams/` + slug + `/` + slug + `/$`),
		scopes: map[string][]string{"GET": {"team:read", "team:write", "team:admin"}}, handler: (*Server).teamDetails},
	{name: "OrganizationTeamsEndpoint", pattern: regexp.MustCompile(`^/api/0/organizations/` + slug + `/teams/$`),
		scopes: map[string][]string{"GET": {"org:read", "org:write", "org:admin"}}, handler: (*Server).orgTeams},
	{name: "TeamProjectsEndpoint", pattern: regexp.MustCompile(`^/api/0/teams/` + slug + `/` + slug + `/projects/$`),
		scopes:  map[string][]string{"GET": {"project:read", "project:write", "project:admin"}, "POST": {"project:write", "project:admin", "org:write", "org:admin"}},
		handler: (*Server).teamProjects},
}

// projectScopes is ProjectPermission's scope_map (src/sentry/api/bases/project.py).
var projectScopes = map[string][]string{
	"GET":    {"project:read", "project:write", "project:admin"},
	"POST":   {"project:write", "project:admin"},
	"PUT":    {"project:write", "project:admin"},
	"DELETE": {"project:admin"},
}

const maxBody = 1 << 20

// ServeHTTP answers in Sentry's order: the rate limit middleware, the
// route (Sentry's catch-all 404 otherwise), authentication (401), the
// token's scopes (403), then the objects named (404) and the endpoint.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	lw := &statusWriter{ResponseWriter: w}
	defer s.logLine(r, lw, start)
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil || len(body) > maxBody {
		writeJSON(lw, http.StatusRequestEntityTooLarge, map[string]string{"detail": "Request body too large."})
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
	if s.ingest(lw, r, body) {
		return
	}
	c := &call{w: lw, r: r, body: body}
	for _, rt := range routes {
		if m := rt.pattern.FindStringSubmatch(r.URL.EscapedPath()); m != nil {
			c.route, c.params = rt, m[1:]
			break
		}
	}
	if c.route == nil {
		catchAll(lw, r)
		return
	}
	// Sentry's RatelimitMiddleware runs in process_view, before the
	// view's authentication: a request past the limit is 429 whatever its
	// token, and one without a valid token is counted by its address.
	if s.throttled(c) {
		return
	}
	if !s.authenticate(c) {
		return
	}
	if c.route.scopes != nil {
		allowed, ok := c.route.scopes[r.Method]
		if !ok {
			writeJSON(lw, http.StatusMethodNotAllowed, map[string]string{"detail": fmt.Sprintf("Method \"%s\" not allowed.", r.Method)})
			return
		}
		if c.token == nil || !slices.ContainsFunc(c.token.Scopes, func(sc string) bool { return slices.Contains(allowed, sc) }) {
			// PR getsentry/sentry#118612: the body stays DRF's, the scopes
			// the endpoint accepts ride in an RFC 6750 challenge.
			if c.token != nil {
				sorted := slices.Clone(allowed)
				sort.Strings(sorted)
				lw.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="`+strings.Join(sorted, " ")+`"`)
			}
			writeJSON(lw, http.StatusForbidden, map[string]string{"detail": "You do not have permission to perform this action."})
			return
		}
	}
	c.route.handler(s, c)
}

// catchAll is Sentry's CatchallEndpoint: a path without its trailing slash
// is told so, in JSON for a JSON request.
func catchAll(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, "/api/") && !strings.HasSuffix(r.URL.Path, "/") {
		help := "Route not found, did you forget a trailing slash?"
		suggestion := "try: " + r.URL.Path + "/"
		if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
			writeJSON(w, http.StatusNotFound, map[string]string{"info": help + " " + suggestion})
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, "%s\n\n%s\n%s^\n", help, suggestion, strings.Repeat(" ", len(suggestion)-1))
		return
	}
	w.WriteHeader(http.StatusNotFound)
}

// authenticate is UserAuthTokenAuthentication: a Bearer token it knows,
// not expired. No Authorization header is an anonymous request, which only
// the index serves.
func (s *Server) authenticate(c *call) bool {
	h := c.r.Header.Get("Authorization")
	fail := func(msg string) bool {
		c.w.Header().Set("WWW-Authenticate", `xBasic realm="api"`)
		writeJSON(c.w, http.StatusUnauthorized, map[string]string{"detail": msg})
		return false
	}
	if h == "" {
		if c.route.scopes == nil {
			return true
		}
		return fail("Authentication credentials were not provided.")
	}
	parts := strings.Fields(h)
	if !strings.EqualFold(parts[0], "bearer") {
		return fail("Authentication credentials were not provided.")
	}
	switch len(parts) {
	case 1:
		return fail("Invalid token header. No credentials provided.")
	case 2:
	default:
		return fail("Invalid token header. Token string should not contain spaces.")
	}
	s.mu.Lock()
	t, ok := s.st.tokens[parts[1]]
	s.mu.Unlock()
	switch msg := tokenRefusal(c, t, ok, parts[1]); {
	case msg != "":
		return fail(msg)
	case !ok:
		return fail("Invalid token")
	case t.Expired:
		return fail("Token expired")
	}
	c.token = &t
	return true
}

// throttled is RatelimitMiddleware with a fixed window of a second per
// caller, route and method, when Options.RateLimit is set. The caller is
// the token's user for a token the server knows (Sentry's middleware
// authenticates the token itself to key the limit), else the client's
// address (get_rate_limit_key's ip: key).
func (s *Server) throttled(c *call) bool {
	limit := s.opts.RateLimit
	if limit <= 0 {
		return false
	}
	now := s.now()
	caller := "ip:" + remoteHost(c.r)
	if f := strings.Fields(c.r.Header.Get("Authorization")); len(f) == 2 && strings.EqualFold(f[0], "bearer") {
		s.mu.Lock()
		t, ok := s.st.tokens[f[1]]
		s.mu.Unlock()
		if ok && !t.Expired {
			caller = "user:" + t.User + ":" + f[1]
		}
	}
	key := caller + ":" + c.route.name + ":" + c.r.Method
	s.rlMu.Lock()
	win := s.rl[key]
	if win == nil || now.Sub(win.start) >= time.Second {
		win = &window{start: now.Truncate(time.Second)}
		s.rl[key] = win
	}
	win.count++
	count, reset := win.count, win.start.Add(time.Second)
	s.rlMu.Unlock()
	h := c.w.Header()
	h.Set("X-Sentry-Rate-Limit-Remaining", strconv.Itoa(max(limit-count, 0)))
	h.Set("X-Sentry-Rate-Limit-Limit", strconv.Itoa(limit))
	h.Set("X-Sentry-Rate-Limit-Reset", strconv.FormatInt(reset.Unix(), 10))
	h.Set("X-Sentry-Rate-Limit-ConcurrentRemaining", "24")
	h.Set("X-Sentry-Rate-Limit-ConcurrentLimit", "25")
	if count <= limit {
		return false
	}
	// The middleware's HttpResponse of orjson.dumps({"detail": …}), with
	// Django's default type.
	h.Set("Content-Type", "text/html; charset=utf-8")
	c.w.WriteHeader(http.StatusTooManyRequests)
	b, _ := json.Marshal(map[string]string{"detail": fmt.Sprintf("You are attempting to use this endpoint too frequently. Limit is %d requests in 1 seconds", limit)})
	_, _ = c.w.Write(b)
	return true
}

// remoteHost is the client's address without its port.
func remoteHost(r *http.Request) string {
	if h, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return h
	}
	return r.RemoteAddr
}

func (s *Server) index(c *call) {
	if c.r.Method != http.MethodGet {
		writeJSON(c.w, http.StatusMethodNotAllowed, map[string]string{"detail": fmt.Sprintf("Method \"%s\" not allowed.", c.r.Method)})
		return
	}
	out := map[string]any{"version": "0", "auth": nil, "user": nil}
	if t := c.token; t != nil {
		out["auth"] = map[string]any{"scopes": t.Scopes}
		if !t.OrgToken { // an organisation's token has no user
			out["user"] = map[string]any{"id": "1", "username": t.User, "name": "Demo Maintainer", "email": t.User + "@example.com"}
		}
	}
	writeJSON(c.w, http.StatusOK, out)
}

func notFound(w http.ResponseWriter) {
	writeJSON(w, http.StatusNotFound, map[string]string{"detail": "The requested resource does not exist"})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"detail":"Internal Error"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

type statusWriter struct {
	http.ResponseWriter
	status int
	note   string
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// logLine writes one line per request to Options.Log, tokens never in it.
func (s *Server) logLine(r *http.Request, w *statusWriter, start time.Time) {
	if s.opts.Log == nil {
		return
	}
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.opts.Log, "mock-sentry: %s %s %d %s %s\n", r.Method, r.URL.Path, w.status, time.Since(start).Round(time.Millisecond), w.note)
}
