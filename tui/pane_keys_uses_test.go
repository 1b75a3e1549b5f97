package tui

import "testing"

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
