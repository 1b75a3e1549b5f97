package mockserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// With a SentryURL the demo's Sentry-backed project names that Sentry in
// its settings, the organisation and project slugs kept.
func TestSentryURLInSettings(t *testing.T) {
	s, err := New(Options{SentryURL: "http://127.0.0.1:9999/"})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/api/v4/projects/3/error_tracking/settings", nil)
	req.Header.Set("PRIVATE-TOKEN", TokenMaintainer)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(b), `"api_url":"http://127.0.0.1:9999/api/0/projects/demo/legacy-api/"`) {
		t.Fatalf("%s", b)
	}
}

// --scale-sentry's projects are Sentry-backed as GitLab stores one
// (integrated false, api_url naming the Sentry project, project_name),
// each naming its own Sentry project, their SENTRY_DSN holding that
// project's DSN, in a group the demo user owns; without a Sentry to point
// at, the option is refused.
func TestScaleSentryProjects(t *testing.T) {
	_, ts := newTest(t, Options{SentryURL: "http://127.0.0.1:9999/", ScaleSentry: 2,
		SentryDSNOf: func(slug string) string { return "http://pub@127.0.0.1:9999/dsn-of-" + slug }})
	for i, slug := range []string{"fleet-app-001", "fleet-app-002"} {
		id := strconv.Itoa(2101 + i)
		r := do(t, ts, http.MethodGet, "/api/v4/projects/"+id+"/error_tracking/settings", TokenMaintainer)
		if r.status != 200 || !strings.Contains(r.body, `"integrated":false`) || !strings.Contains(r.body, `"api_url":"http://127.0.0.1:9999/api/0/projects/demo/`+slug+`/"`) {
			t.Fatalf("project %s settings: %d %s", id, r.status, r.body)
		}
		r = do(t, ts, http.MethodGet, "/api/v4/projects/"+id+"/variables/SENTRY_DSN", TokenMaintainer)
		if r.status != 200 || !strings.Contains(r.body, "dsn-of-"+slug) {
			t.Fatalf("project %s SENTRY_DSN: %d %s", id, r.status, r.body)
		}
	}
	r := do(t, ts, http.MethodGet, "/api/v4/groups/sentry-fleet/projects", TokenMaintainer)
	if r.status != 200 || !strings.Contains(r.body, "sentry-fleet/app-002") {
		t.Fatalf("group: %d %s", r.status, r.body)
	}
	if r := do(t, ts, http.MethodGet, "/api/v4/groups/sentry-fleet/variables", TokenMaintainer); r.status != 200 {
		t.Fatalf("the group's Owner cannot read its variables: %d %s", r.status, r.body)
	}
	if _, err := New(Options{ScaleSentry: 2}); err == nil {
		t.Fatal("--scale-sentry without a Sentry was accepted")
	}
}
