package mockserver

import (
	"strings"
	"testing"
)

// Before 14.2 there is no integrated column: an enabled setting is a
// Sentry one and needs its API URL and token.
func TestSentryValidationBeforeIntegrated(t *testing.T) {
	_, ts := newTest(t, Options{GitLabVersion: "13.0"})
	r := do(t, ts, "PATCH", settings1+"?active=true", TokenMaintainer)
	want := `{"message":"Error tracking setting api url is a required field and Error tracking setting token is a required field","status":"error"}`
	if r.status != 200 || r.body != want {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if r := do(t, ts, "PATCH", "/api/v4/projects/3/error_tracking/settings?active=true", TokenMaintainer); r.status != 200 || strings.Contains(r.body, "status") {
		t.Fatalf("the Sentry project: %d %s", r.status, r.body)
	}
}
