package mockserver

import (
	"net/http"
	"strings"
)

// verb is a method of a route and the release it appeared in.
type verb struct {
	method string
	since  release
}

// route is an endpoint: its methods in the order GitLab declares them
// (which its Allow header keeps), its handler and the token scopes it
// accepts.
type route struct {
	methods []verb
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
		return route{methods: []verb{{"GET", release{}}}, handle: (*Server).getUser, scopes: userScopes}, true
	case n == 2 && is(0, "personal_access_tokens") && is(1, "self"):
		return route{methods: []verb{{"GET", sinceTokenSelf}}, handle: (*Server).getTokenSelf, scopes: anyScope}, true
	case n == 3 && is(0, "personal_access_tokens") && is(1, "self") && is(2, "rotate"):
		return route{methods: []verb{{"POST", sinceSelfRotation}}, handle: (*Server).rotateToken, scopes: rotateScopes}, true
	case n == 1 && is(0, "version"):
		return route{methods: []verb{{"GET", release{}}}, handle: (*Server).getVersion, scopes: userScopes}, true
	case n == 1 && is(0, "metadata"):
		return route{methods: []verb{{"GET", sinceMetadata}}, handle: (*Server).getVersion, scopes: userScopes}, true
	case n == 2 && is(0, "groups"):
		return route{methods: []verb{{"GET", release{}}}, handle: (*Server).getGroup, scopes: apiScopes}, true
	case n == 3 && is(0, "groups") && is(2, "projects"):
		return route{methods: []verb{{"GET", release{}}}, handle: (*Server).groupProjects, scopes: apiScopes}, true
	case n == 3 && is(0, "groups") && is(2, "subgroups"):
		return route{methods: []verb{{"GET", release{}}}, handle: (*Server).subgroups, scopes: apiScopes}, true
	case n == 3 && is(0, "groups") && is(2, "variables"):
		return route{methods: []verb{{"GET", release{}}, {"POST", release{}}}, handle: (*Server).variables, scopes: apiScopes}, true
	case n == 4 && is(0, "groups") && is(2, "variables"):
		return route{methods: []verb{{"GET", release{}}, {"PUT", release{}}, {"DELETE", release{}}}, handle: (*Server).variable, scopes: apiScopes}, true
	case n == 1 && is(0, "projects"):
		return route{methods: []verb{{"GET", release{}}}, handle: (*Server).listProjects, scopes: apiScopes}, true
	case n == 2 && is(0, "projects"):
		return route{methods: []verb{{"GET", release{}}}, handle: (*Server).getProject, scopes: apiScopes}, true
	case n == 4 && is(0, "projects") && is(2, "error_tracking") && is(3, "settings"):
		return route{methods: []verb{{"GET", sinceSettingsGet}, {"PATCH", sincePatch}, {"PUT", sinceSettingsPut}}, handle: (*Server).settings, scopes: apiScopes, project: true}, true
	case n == 4 && is(0, "projects") && is(2, "error_tracking") && is(3, "client_keys"):
		return route{methods: []verb{{"GET", sinceClientKeys}, {"POST", sinceClientKeys}}, handle: (*Server).clientKeys, scopes: apiScopes, project: true}, true
	case n == 5 && is(0, "projects") && is(2, "error_tracking") && is(3, "client_keys"):
		return route{methods: []verb{{"DELETE", sinceClientKeys}}, handle: (*Server).deleteClientKey, scopes: apiScopes, project: true}, true
	case n == 3 && is(0, "projects") && is(2, "variables"):
		return route{methods: []verb{{"GET", release{}}, {"POST", release{}}}, handle: (*Server).variables, scopes: apiScopes, project: true}, true
	case n == 4 && is(0, "projects") && is(2, "variables"):
		return route{methods: []verb{{"GET", release{}}, {"PUT", release{}}, {"DELETE", release{}}}, handle: (*Server).variable, scopes: apiScopes, project: true}, true
	}
	return route{}, false
}

// has reports a method the route has in this release.
func (s *Server) has(rt route, method string) bool {
	for _, v := range rt.methods {
		if v.method == method {
			return s.release.atLeast(v.since)
		}
	}
	return false
}

// exists reports whether the route is in this release at all: OPTIONS is
// answered only where some method is.
func (s *Server) exists(rt route) bool {
	for _, v := range rt.methods {
		if s.release.atLeast(v.since) {
			return true
		}
	}
	return false
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
	for _, v := range rt.methods {
		if s.release.atLeast(v.since) {
			allow = append(allow, v.method)
		}
	}
	if s.has(rt, "GET") {
		allow = append(allow, "HEAD")
	}
	c.w.Header().Set("Allow", strings.Join(allow, ", "))
	c.w.WriteHeader(http.StatusNoContent)
}

// GitLab registers api for every request, and read_api (and read_user
// where allowed) for GET and HEAD only, so OPTIONS needs api.
func apiScopes(method string) []string {
	if method == http.MethodGet {
		return []string{"api", "read_api"}
	}
	return []string{"api"}
}

func userScopes(method string) []string {
	if method == http.MethodGet {
		return []string{"api", "read_api", "read_user"}
	}
	return []string{"api"}
}

func rotateScopes(string) []string { return []string{"api", "self_rotate"} }

func anyScope(string) []string { return nil }
