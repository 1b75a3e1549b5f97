package mockserver

import (
	"strings"
	"testing"
)

// TestEveryEndpointAuthRows checks the rows every endpoint shares:
// unauthenticated 401, non-member 404, Developer 403, read_user 403.
func TestEveryEndpointAuthRows(t *testing.T) {
	endpoints := []struct{ method, path string }{
		{"GET", "/error_tracking/settings"},
		{"PUT", "/error_tracking/settings?active=true&integrated=true"},
		{"PATCH", "/error_tracking/settings?active=true"},
		{"GET", "/error_tracking/client_keys"},
		{"POST", "/error_tracking/client_keys"},
		{"DELETE", "/error_tracking/client_keys/1"},
	}
	s, ts := newTest(t, Options{})
	s.mu.Lock()
	s.st.Tokens["read-user-token"] = Token{ID: 99, UserID: 1, Scopes: []string{"read_user"}}
	s.mu.Unlock()
	for _, e := range endpoints {
		for _, row := range []struct {
			project, token string
			status         int
			body           string
		}{
			{"1", "", 401, `{"message":"401 Unauthorized"}`},
			{"999", "", 401, `{"message":"401 Unauthorized"}`},
			{"6", TokenMaintainer, 404, `{"message":"404 Project Not Found"}`},
			{"private%2Fsecret", TokenMaintainer, 404, `{"message":"404 Project Not Found"}`},
			{"1", TokenDeveloper, 403, `{"message":"403 Forbidden"}`},
			{"1", "read-user-token", 403, `"error":"insufficient_scope"`},
		} {
			got := do(t, ts, e.method, "/api/v4/projects/"+row.project+e.path, row.token)
			if got.status != row.status || !strings.Contains(got.body, row.body) {
				t.Errorf("%s %s as %q: %d %s, want %d %s", e.method, row.project+e.path, row.token, got.status, got.body, row.status, row.body)
			}
			if row.status == 401 && row.token == "" && got.header.Get("Content-Type") != "application/json" {
				t.Error("401 not JSON")
			}
		}
	}
	// /user accepts read_user; the error tracking endpoints do not.
	if got := do(t, ts, "GET", "/api/v4/user", "read-user-token"); got.status != 200 {
		t.Fatalf("/user with read_user: %d", got.status)
	}
}
