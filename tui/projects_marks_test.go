package tui

import (
	"testing"
)

// A project the user does not maintain is shown dimmed with their role,
// and neither marked nor opened: every call there would be refused.
func TestNotMaintainedProjectsStayClosed(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "demo/mobile"})
	h.filter("kiosk")
	h.key("space")
	h.mustSay("demo/mobile/kiosk: you are a Developer here, not a Maintainer")
	h.mustNotSee("marked")
	h.key("enter")
	h.mustSay("you are a Developer here", "does not open here")
	h.mustSee("Projects of group demo/mobile")
	if len(h.m.stack) != 1 {
		t.Fatal("a project the user does not maintain was opened")
	}
}

// Marks outside the group the list changes to are dropped: a bulk change
// acts only on projects the user sees marked.
func TestMarksFollowTheScope(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url})
	h.filter("web-shop")
	h.key("space", "esc")
	h.filter("ios")
	h.key("space", "esc")
	h.mustSee("2 marked")
	h.key("ctrl+g", "ctrl+u")
	h.typeText("demo/mobile")
	h.key("enter")
	h.mustSee("Projects of group demo/mobile", "1 marked", "● demo/mobile/ios")
	h.key("ctrl+o")
	h.mustSay("1 marked project")
}
