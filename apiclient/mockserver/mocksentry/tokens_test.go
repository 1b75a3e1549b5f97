package mocksentry

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// Sentry's token kinds (src/sentry/api/authentication.py): an organisation
// token (sntrys_, org:ci, no user) authenticates everywhere but its scope
// reads no keys; a user token limited to one organisation is refused on
// routes without it in the URL, GET /api/0/ included, and on another
// organisation's; an unknown sntrys_ token is "Invalid org token".
func TestTokenKinds(t *testing.T) {
	ts := httptest.NewServer(New(Options{}))
	defer ts.Close()
	keys := "/api/0/projects/demo/legacy-api/keys/"
	for _, c := range []struct {
		path, token string
		code        int
		has         string
	}{
		{"/api/0/", TokenOrgCI, 200, `"auth":{"scopes":["org:ci"]}`},
		{"/api/0/", TokenOrgCI, 200, `"user":null`},
		{keys, TokenOrgCI, 403, "You do not have permission"},
		{"/api/0/", "sntrys_not-a-token", 401, `"Invalid org token"`},
		{"/api/0/", TokenOrgScoped, 401, `"This token access is limited to organization endpoints."`},
		{keys, TokenOrgScoped, 200, `"public"`},
		{"/api/0/projects/other/legacy-api/keys/", TokenOrgScoped, 401, `"Unauthorized organization access."`},
		{"/api/0/organizations/", TokenOrgScoped, 200, `"slug":"demo"`},
		{"/api/0/organizations/", TokenOrgCI, 403, "You do not have permission"},
	} {
		resp, body := get(t, ts, c.path, c.token)
		if resp.StatusCode != c.code || !strings.Contains(body, c.has) {
			t.Errorf("%s with %s: %d %s, want %d with %s", c.path, c.token, resp.StatusCode, body, c.code, c.has)
		}
		if c.code == 401 && resp.Header.Get("WWW-Authenticate") != `xBasic realm="api"` {
			t.Errorf("%s with %s: WWW-Authenticate %q", c.path, c.token, resp.Header.Get("WWW-Authenticate"))
		}
	}
}
