package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/internal/contract"
)

// contractCLI runs errtrack against GitLab's answers as its source shapes
// them (internal/contract), not against the mock: no permissions in a
// group's listing, projects shared into the group, an archived one, a
// hidden and a file variable. A request no fixture answers fails the test.
func contractCLI(t *testing.T, set string) *cli {
	t.Helper()
	s, err := contract.NewServer(set)
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, s)
	t.Cleanup(func() {
		if u := s.Unmatched(); len(u) > 0 {
			t.Errorf("requests no fixture answers: %v", u)
		}
	})
	return c
}

func TestGroupCommandsAgainstGitLabsAnswers(t *testing.T) {
	t.Parallel()
	c := contractCLI(t, "ops")

	// audit: the maintained projects, the shared one included; a key a
	// hidden variable may hold is unknown, a dotenv line is a use.
	r := c.run("", "audit", "--group", "ops", "--json")
	r.must(t, 0, "skipped ops/old-dashboard: archived", "skipped partner/docs: your role here is below Maintainer")
	var audits []struct {
		Project string `json:"project"`
		Keys    []struct {
			ID         int64            `json:"id"`
			UsedIn     []map[string]any `json:"used_in"`
			UseUnknown []string         `json:"use_unknown"`
		} `json:"keys"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &audits); err != nil || len(audits) != 2 || audits[0].Project != "partner/sdk" || audits[1].Project != "ops/api" {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	api := audits[1].Keys
	if len(api) != 2 || len(api[0].UsedIn) != 0 || strings.Join(api[0].UseUnknown, "; ") != "hidden variable SENTRY_DSN (all environments); hidden variable group ops/OPS_SENTRY_DSN (environment production)" ||
		len(api[1].UsedIn) != 1 || api[1].UsedIn[0]["line"] != "SENTRY_DSN" {
		t.Fatalf("ops/api's keys: %+v", api)
	}
	if len(audits[0].Keys) != 1 || len(audits[0].Keys[0].UsedIn) != 1 {
		t.Fatalf("partner/sdk's key: %+v", audits[0].Keys)
	}

	// doctor: every maintained project checked, none skipped silently.
	r = c.run("", "doctor", "--group", "ops")
	r.must(t, 0, "partner/sdk\n", "ops/api\n", "role                 Maintainer of partner/sdk", "skipped ops/old-dashboard: archived")

	// keys rotate --dry-run: the shared project is rotated, and labelled.
	r = c.run("", "keys", "rotate", "--group", "ops", "--dry-run", "--ci-variable", "SENTRY_DSN", "--delete-with-unread-groups")
	r.must(t, 0, "Group ops: 1 of 4 projects to rotate", "partner/sdk (shared into ops)", "rotate key 913",
		"ops/old-dashboard", "skip: archived", "partner/docs (shared into ops)", "skip: your role here is below Maintainer",
		"ops/api", "SENTRY_DSN is hidden", "Dry run: nothing was changed")

	// projects list: every project the user has a role in, with why a
	// change skips one.
	r = c.run("", "projects", "list", "--group", "ops")
	r.must(t, 0, "partner/sdk", "SDK (shared)", "integrated · on · 1 key", "ops/old-dashboard", "archived: skipped by changes",
		"partner/docs", "Docs (shared)", "no access (Maintainer role needed)", "ops/api", "integrated · on · 2 keys")
}

// GitLab's ApplicationRateLimiter answers the group's listing with its
// JSON 429 and a minute's Retry-After: errtrack says it was limited and
// how to go on, within --timeout.
func TestGroupListingRateLimitedByGitLab(t *testing.T) {
	t.Parallel()
	s, err := contract.NewServer("limited")
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, s)
	start := time.Now()
	r := c.run("", "projects", "list", "--group", "ops", "--timeout", "3s")
	r.must(t, 1, "The server is rate limiting requests. Wait 60 s, then run the command again.")
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %s", d)
	}
}
