package mockserver

import (
	"strings"
	"testing"
)

// Allow lists a route's methods in the order GitLab declares them, OPTIONS
// first and HEAD after them (Grape's allow header), in the release asked.
func TestAllowOrder(t *testing.T) {
	for _, tc := range []struct{ version, path, want string }{
		{"", settings1, "OPTIONS, GET, PATCH, PUT, HEAD"},
		{"15.4", settings1, "OPTIONS, GET, PATCH, HEAD"},
		{"", keys1, "OPTIONS, GET, POST, HEAD"},
		{"", keys1 + "/1", "OPTIONS, DELETE"},
		{"", "/api/v4/projects/1/variables", "OPTIONS, GET, POST, HEAD"},
		{"", "/api/v4/projects/1/variables/SENTRY_DSN", "OPTIONS, GET, PUT, DELETE, HEAD"},
	} {
		_, ts := newTest(t, Options{GitLabVersion: tc.version})
		r := do(t, ts, "OPTIONS", tc.path, TokenMaintainer)
		if r.status != 204 || r.header.Get("Allow") != tc.want {
			t.Errorf("%s %s: %d Allow %q, want %q", tc.version, tc.path, r.status, r.header.Get("Allow"), tc.want)
		}
	}
}

// OPTIONS on a route the release lacks is the catch-all, before
// authentication, as every other method there is.
func TestOptionsOnAMissingRoute(t *testing.T) {
	_, ts := newTest(t, Options{GitLabVersion: "13.0"})
	for _, tok := range []string{"", TokenMaintainer} {
		if r := do(t, ts, "OPTIONS", keys1, tok); r.status != 404 || r.body != `{"error":"404 Not Found"}` {
			t.Errorf("token %q: %d %s", tok, r.status, r.body)
		}
	}
}

// read_api and read_user are accepted on GET and HEAD only: OPTIONS needs api.
func TestReadScopesOnOptions(t *testing.T) {
	s, ts := newTest(t, Options{})
	s.mu.Lock()
	s.st.Tokens["read-user-token"] = Token{ID: 99, UserID: 1, Scopes: []string{"read_user"}}
	s.mu.Unlock()
	for _, tc := range []struct{ path, token, scope string }{
		{settings1, TokenReadOnly, `"scope":"api read_api"`},
		{"/api/v4/user", "read-user-token", `"scope":"api read_api read_user"`},
	} {
		if r := do(t, ts, "OPTIONS", tc.path, tc.token); r.status != 403 || !strings.Contains(r.body, tc.scope) {
			t.Errorf("OPTIONS %s: %d %s", tc.path, r.status, r.body)
		}
		if r := do(t, ts, "HEAD", tc.path, tc.token); r.status != 200 {
			t.Errorf("HEAD %s: %d", tc.path, r.status)
		}
	}
}
