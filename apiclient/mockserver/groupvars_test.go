package mockserver

import (
	"net/http"
	"strings"
	"testing"
)

// A group's CI/CD variables are listed, read, created, updated and deleted
// as a project's, by an Owner of the group only; their seeded DSNs
// resolve to the project's key they name.
func TestGroupVariables(t *testing.T) {
	_, ts := newTest(t, Options{ScaleGroup: 1})
	const base = "/api/v4/groups/fleet/variables"
	json := func(s string) []string { return []string{"Content-Type", "application/json", "body", s} }
	if r := do(t, ts, "GET", base, TokenMaintainer); r.status != 200 || !strings.Contains(r.body, `"FLEET_SENTRY_DSN"`) || !strings.Contains(r.body, "/errortracking/api/v1/projects/2001") {
		t.Fatalf("list: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "POST", base, TokenMaintainer, json(`{"key":"RELEASE","value":"1.2.3","environment_scope":"production"}`)...); r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "POST", base, TokenMaintainer, json(`{"key":"RELEASE","value":"x","environment_scope":"production"}`)...); r.status != 400 || !strings.Contains(r.body, "has already been taken") {
		t.Fatalf("duplicate: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "PUT", base+"/RELEASE", TokenMaintainer, json(`{"value":"1.2.4"}`)...); r.status != 200 || !strings.Contains(r.body, `"1.2.4"`) {
		t.Fatalf("update: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "GET", base+"/RELEASE", TokenMaintainer); r.status != 200 || !strings.Contains(r.body, `"1.2.4"`) {
		t.Fatalf("get: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "DELETE", base+"/RELEASE", TokenMaintainer); r.status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "GET", base+"/RELEASE", TokenMaintainer); r.status != 404 {
		t.Fatalf("after delete: %d %s", r.status, r.body)
	}
	// The demo user is no Owner of demo (a Maintainer of projects in it):
	// every call is refused and nothing changes.
	for _, m := range []string{"GET", "POST"} {
		if r := do(t, ts, m, "/api/v4/groups/demo/variables", TokenMaintainer, json(`{"key":"K","value":"v"}`)...); r.status != 403 {
			t.Fatalf("%s as a non-Owner of the group: %d %s", m, r.status, r.body)
		}
	}
	if r := do(t, ts, "GET", "/api/v4/groups/nope/variables", TokenMaintainer); r.status != 404 {
		t.Fatalf("missing group: %d", r.status)
	}
}
