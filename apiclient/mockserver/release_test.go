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

// TestReleases walks §12: a route a release lacks is the catch-all 404
// before authentication; the settings and DSNs change with the release.
func TestReleases(t *testing.T) {
	type probe struct {
		method, path string
		status       int
		body         string
	}
	token := "?private_token=" + TokenMaintainer
	cases := []struct {
		version string
		probes  []probe
	}{
		{"12.6", []probe{{"GET", settings1, 404, `{"error":"404 Not Found"}`}}},
		{"12.7", []probe{{"GET", settings1 + token, 200, `"active":true`}, {"PATCH", settings1 + "?active=true", 404, `{"error":"404 Not Found"}`}}},
		{"13.0", []probe{
			{"PATCH", settings1 + token + "&active=false&integrated=true", 200, `{"active":false,"project_name":null,"errtracker_external_url":null,"api_url":null}`},
			{"GET", keys1, 404, `{"error":"404 Not Found"}`},
			{"PUT", settings1, 404, `{"error":"404 Not Found"}`},
			{"GET", "/api/v4/metadata", 404, `{"error":"404 Not Found"}`},
			{"GET", "/api/v4/version" + token, 200, `"version":"13.0.0"`},
		}},
		{"14.2", []probe{{"GET", settings1 + token, 200, `"integrated":true`}, {"POST", keys1, 404, `{"error":"404 Not Found"}`}}},
		{"14.3", []probe{{"GET", keys1 + token, 200, `/api/v4/error_tracking/collector/1"`}}},
		{"14.9", []probe{{"PATCH", "/api/v4/projects/2/error_tracking/settings" + token + "&active=nonsense", 404, `404 Error Tracking Setting Not Found`}}},
		{"15.4", []probe{{"PUT", settings1 + "?active=true&integrated=true", 404, `{"error":"404 Not Found"}`}, {"GET", "/api/v4/personal_access_tokens/self", 404, `{"error":"404 Not Found"}`}, {"GET", "/api/v4/metadata" + token, 200, `"version":"15.4.0"`}}},
		{"15.10", []probe{{"PUT", settings1 + token + "&active=true&integrated=true", 200, `"active":true`}, {"PATCH", "/api/v4/projects/2/error_tracking/settings" + token + "&active=nonsense", 400, `active is invalid`}}},
		{"16.0", []probe{{"GET", keys1 + token, 200, `/api/v4/error_tracking/collector/1"`}, {"POST", "/api/v4/personal_access_tokens/self/rotate", 404, `{"error":"404 Not Found"}`}}},
		{"16.1", []probe{{"GET", keys1 + token, 200, `/errortracking/api/v1/projects/1"`}}},
	}
	for _, tc := range cases {
		_, ts := newTest(t, Options{GitLabVersion: tc.version})
		for _, p := range tc.probes {
			r := do(t, ts, p.method, p.path, "")
			if r.status != p.status || !strings.Contains(r.body, p.body) {
				t.Errorf("%s %s %s: %d %s, want %d %s", tc.version, p.method, p.path, r.status, r.body, p.status, p.body)
			}
		}
	}
	if _, err := New(Options{GitLabVersion: "fifteen"}); err == nil {
		t.Fatal("a malformed version accepted")
	}
}
