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

// --gitlab-version takes what /version shows (17.5.1-ee, 16.0.0-pre) and
// reports the patch given.
func TestVersionSpellings(t *testing.T) {
	for in, want := range map[string]string{"17.5": "17.5.0", "15.4.2": "15.4.2", "17.5.1-ee": "17.5.1", "16.0.0-pre": "16.0.0", " 16.10 ": "16.10.0"} {
		_, ts := newTest(t, Options{GitLabVersion: in})
		if r := do(t, ts, "GET", "/api/v4/version", TokenMaintainer); !strings.Contains(r.body, `"version":"`+want+`"`) {
			t.Errorf("%q: %s", in, r.body)
		}
	}
	for _, bad := range []string{"15", "x.y", "15.4.x", "15.4.2.1", "15.-1", "15.+1", "15..4", "7.14", "15.4-ee", "15.4.-ee"} {
		if _, err := New(Options{GitLabVersion: bad}); err == nil || !strings.Contains(err.Error(), "GitLab version") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
