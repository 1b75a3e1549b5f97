package tui

import (
	"reflect"
	"testing"
)

// A marked projects' rotation where the groups' variables cannot be read
// (the user is no Owner of them) asks before it plans to delete old keys
// there; No leaves those projects as they are, and nothing changes.
func TestBulkRotationAsksBeforeGoingWhereGroupsAreUnread(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "demo/mobile"})
	before := allKeys(g)
	h.key("ctrl+a", "ctrl+o", "r", "enter")
	h.mustSay("Rotate also in 1 project whose groups' variables are unknown?", "groups demo, demo/mobile could not be read", "Left alone: demo/mobile/ios")
	h.key("n")
	h.mustSay("Rotating the keys SENTRY_DSN holds: nothing to do in the marked projects.", "not rotated: the variables of group")
	h.key("down", "enter") // the row whole
	h.mustSay("group demo/mobile are unknown")
	if !reflect.DeepEqual(allKeys(g), before) {
		t.Fatalf("keys changed: %v, was %v", allKeys(g), before)
	}
}
