package mockserver

import (
	"net/http"
	"strings"
)

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
