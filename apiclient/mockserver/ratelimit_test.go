package mockserver

import (
	"strings"
	"testing"
	"time"
)

// R1–R3: throttle_authenticated_api counts per user in periods aligned to
// the epoch; RateLimit-* on an unthrottled answer only as GitLab.com sends
// them; the 429 is text/plain with Retry-After to the period's end.
func TestRackAttackThrottle(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 50, 0, time.UTC)
	clock := func() time.Time { return at }
	for _, instance := range []string{InstanceSelfManaged, InstanceGitLabCom} {
		_, ts := newTest(t, Options{RateLimit: 2, Instance: instance, Now: clock})
		at = time.Date(2026, 3, 1, 12, 0, 50, 0, time.UTC)
		first := do(t, ts, "GET", "/api/v4/user", TokenMaintainer)
		headers := first.header.Get("RateLimit-Limit") != ""
		if first.status != 200 || headers != (instance == InstanceGitLabCom) {
			t.Errorf("%s: first answer %d, RateLimit-* %v", instance, first.status, headers)
		}
		// Another token of the same user counts against the same period.
		do(t, ts, "GET", "/api/v4/user", TokenExpiring)
		third := do(t, ts, "GET", "/api/v4/user", TokenMaintainer)
		if third.status != 429 || third.body != "Retry later\n" || third.header.Get("Content-Type") != "text/plain" ||
			third.header.Get("Retry-After") != "10" || third.header.Get("RateLimit-Reset") != "1772366460" ||
			third.header.Get("RateLimit-Observed") != "3" || third.header.Get("RateLimit-Name") != "throttle_authenticated_api" {
			t.Errorf("%s: 429 %d %q %v", instance, third.status, third.body, third.header)
		}
		// A new period on the minute's boundary, not a minute after the
		// first request.
		at = time.Date(2026, 3, 1, 12, 1, 0, 0, time.UTC)
		if r := do(t, ts, "GET", "/api/v4/user", TokenMaintainer); r.status != 200 {
			t.Errorf("%s: the next period: %d", instance, r.status)
		}
		// The developer's own period.
		if r := do(t, ts, "GET", "/api/v4/user", TokenDeveloper); r.status != 200 {
			t.Errorf("%s: another user: %d", instance, r.status)
		}
	}
	// No throttle, no header (a default self-managed instance).
	_, ts := newTest(t, Options{})
	if r := do(t, ts, "GET", "/api/v4/user", TokenMaintainer); r.header.Get("RateLimit-Limit") != "" || r.header.Get("RateLimit-Remaining") != "" {
		t.Errorf("headers without a throttle: %v", r.header)
	}
}

// R4: ApplicationRateLimiter's 429 on GET /groups/:id (group_api) and
// GET /groups/:id/projects (group_projects_api): JSON, Retry-After the
// interval, no RateLimit-*; other routes are not limited by it.
func TestApplicationRateLimiter(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 50, 0, time.UTC)
	_, ts := newTest(t, Options{GroupAPILimit: 1, GroupProjectsAPILimit: 1, Now: func() time.Time { return at }})
	for _, path := range []string{"/api/v4/groups/demo", "/api/v4/groups/demo/projects"} {
		if r := do(t, ts, "GET", path, TokenMaintainer); r.status != 200 {
			t.Fatalf("%s: %d", path, r.status)
		}
		r := do(t, ts, "GET", path, TokenMaintainer)
		if r.status != 429 || r.body != `{"message":{"error":"This endpoint has been requested too many times. Try again later."}}` ||
			!strings.HasPrefix(r.header.Get("Content-Type"), "application/json") || r.header.Get("Retry-After") != "60" {
			t.Errorf("%s: %d %s %v", path, r.status, r.body, r.header)
		}
		for k := range r.header {
			if strings.HasPrefix(k, "Ratelimit") {
				t.Errorf("%s: %s on the application limiter's 429", path, k)
			}
		}
	}
	for range 3 {
		if r := do(t, ts, "GET", "/api/v4/groups/demo/subgroups", TokenMaintainer); r.status != 200 {
			t.Fatalf("subgroups limited: %d", r.status)
		}
	}
	// Invalid parameters are refused before the limit is counted (Grape).
	if r := do(t, ts, "GET", "/api/v4/groups/demo/projects?min_access_level=1", TokenMaintainer); r.status != 400 {
		t.Errorf("validation after the limit: %d", r.status)
	}
	at = at.Add(10 * time.Second) // the next minute on the clock
	if r := do(t, ts, "GET", "/api/v4/groups/demo", TokenMaintainer); r.status != 200 {
		t.Errorf("after the interval: %d", r.status)
	}
}
