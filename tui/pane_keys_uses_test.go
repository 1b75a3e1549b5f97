package tui

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/seen"
)

// A key's uses name the unread groups in their number: "groups demo,
// demo/mobile", not "group demo, demo/mobile".
func TestUsesNameUnreadGroupsInTheirNumber(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "demo/mobile/ios"})
	h.mustSee("USED IN", "SENTRY_DSN")
	h.key("enter")
	h.mustSay("the variables of groups demo, demo/mobile could not be read")
	if groupsNamed([]string{"demo"}) != "group demo" {
		t.Fatalf("one group named %q", groupsNamed([]string{"demo"}))
	}
}

// The keys pane says where each key's DSN is used, once found, without
// holding up the list; F shows the project's findings with their fixes.
func TestKeysShowWhereTheirDSNIsUsed(t *testing.T) {
	h, _ := console(t, "demo/mobile/ios")
	h.mustSee("USED IN", "SENTRY_DSN")
	h.key("enter")
	h.mustSay("Used in:   SENTRY_DSN (all environments)")
	h.key("esc")
	h.key("F")
	h.mustSay("Findings for demo/mobile/ios: 1 error", "Error: OLD_SENTRY_DSN (environment staging) holds the DSN of a key that", "no longer exists", "Fix: set it to the DSN of a current key")
}

// The list does not wait for the variables: when they cannot be read the
// keys are listed all the same, the column says "?", and F says why.
func TestKeysListDoesNotWaitForUses(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	f.fail("ListVariables", &apiclient.APIError{StatusCode: 403, Kind: apiclient.ErrForbidden, Method: "GET", Path: "/api/v4/projects/1/variables"})
	h := newHarness(t, Deps{API: f, Host: g.url, Project: "demo/web-shop"})
	h.mustSee("Client keys (2)", "USED IN", "?")
	h.mustNotSee("SENTRY_DSN")
	h.key("F")
	h.mustSay("Where the keys' DSNs are used could not be read.")
	h.key("esc", "r")
	h.mustSee("SENTRY_DSN")
}

// The keys' ages: the first sighting of each key, exact for a key the
// console created; n records it.
func TestKeysShowTheirAge(t *testing.T) {
	g := demoGitLab(t)
	store := seen.Open(filepath.Join(t.TempDir(), "keys-seen.json"))
	var now time.Time
	deps := Deps{API: g.api, Host: g.url, Project: "1",
		KeysSeen: func(host string, p projectscope.Project, keys []int64) (map[int64]seen.Entry, error) {
			return store.Observe(host, p.ID, p.Path, keys, now)
		},
		KeyCreated: func(host string, p projectscope.Project, key int64) { _ = store.Created(host, p.ID, p.Path, key, now) }}
	now = testNow.Add(-72 * time.Hour)
	h := newHarness(t, deps)
	h.resize(160, 40)
	h.mustSee("First seen", "3 days ago, ")
	now = testNow
	h.key("n")
	h.mustSee("Created client key 4")
	h.key("r")
	h.mustSee("less than an hour ago", "(created by errtrack)")
	h.key("enter")
	h.mustSay("First seen: less than an hour ago")
}
