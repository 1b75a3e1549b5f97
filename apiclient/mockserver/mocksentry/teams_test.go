package mocksentry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// Teams as Sentry serves them: a team's details (404 for one that is
// not there), an organisation's teams by slug (404 for an organisation
// that is not there) with the caller's membership, and a new project
// whose name Sentry reserves refused with 400.
func TestTeamsAndReservedProjectNames(t *testing.T) {
	ts := httptest.NewServer(New(Options{}))
	defer ts.Close()
	if resp, body := get(t, ts, "/api/0/teams/demo/no-such-team/", TokenAdmin); resp.StatusCode != 404 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if resp, body := get(t, ts, "/api/0/teams/demo/backend/", TokenAdmin); resp.StatusCode != 200 || !strings.Contains(body, `"isMember":true`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if resp, body := get(t, ts, "/api/0/organizations/nope/teams/", TokenAdmin); resp.StatusCode != 404 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	resp, body := get(t, ts, "/api/0/organizations/demo/teams/", TokenAdmin)
	var teams []map[string]any
	if err := json.Unmarshal([]byte(body), &teams); err != nil || resp.StatusCode != 200 || len(teams) != 2 ||
		teams[0]["slug"] != "backend" || teams[1]["slug"] != "frontend" || teams[1]["isMember"] != false {
		t.Fatalf("%d %v %s", resp.StatusCode, err, body)
	}
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/api/0/teams/demo/backend/projects/", bytes.NewReader([]byte(`{"name":"settings"}`)))
	req.Header.Set("Authorization", "Bearer "+TokenAdmin)
	req.Header.Set("Content-Type", "application/json")
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	b, _ := io.ReadAll(r.Body)
	if r.StatusCode != 400 || !strings.Contains(string(b), `The name \"settings\" is reserved and not allowed.`) {
		t.Fatalf("%d %s", r.StatusCode, b)
	}
}

// A new project's platform is checked as Sentry checks it: none, "other"
// or one Sentry has getting-started docs for; any other is 400 "Invalid
// platform" and nothing is made.
func TestNewProjectPlatformChecked(t *testing.T) {
	ts := httptest.NewServer(New(Options{}))
	defer ts.Close()
	for i, tc := range []struct {
		platform string
		status   int
	}{{`"cobol"`, 400}, {`"python-django"`, 201}, {`"other"`, 201}, {`""`, 201}, {`null`, 201}} {
		body := fmt.Sprintf(`{"name":"p%d","platform":%s}`, i, tc.platform)
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/api/0/teams/demo/backend/projects/", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+TokenAdmin)
		req.Header.Set("Content-Type", "application/json")
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(r.Body)
		r.Body.Close()
		if r.StatusCode != tc.status || tc.status == 400 && string(b) != `{"platform":["Invalid platform"]}` {
			t.Errorf("platform %s: %d %s", tc.platform, r.StatusCode, b)
		}
	}
	if resp, body := get(t, ts, "/api/0/projects/demo/p0/", TokenAdmin); resp.StatusCode != 404 {
		t.Fatalf("a project made with an invalid platform: %d %s", resp.StatusCode, body)
	}
}
