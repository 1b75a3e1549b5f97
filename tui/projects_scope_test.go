package tui

import (
	"testing"
)

// --group shows only the group's projects (not its subgroups' unless
// asked); ctrl+g asks for another group, with or without subgroups, or
// none for all the projects you maintain.
func TestScopeAskedForAGroup(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "demo/mobile"})
	h.mustSee("Projects of group demo/mobile on", "demo/mobile/ios", "demo/mobile/android", "demo/mobile/kiosk", "(3)", "projects of demo/mobile │")
	h.mustNotSee("demo/web-shop", "demo/paused", "subgroups")
	h.key("ctrl+g")
	h.mustSee("Show the projects of which group?", "Group: demo/mobile", "[ ] with its subgroups")
	h.key("ctrl+u")
	h.typeText("demo")
	h.key("tab")
	h.mustSee("[x] with its subgroups")
	h.key("enter")
	h.mustSee("Projects of group demo and its subgroups", "demo/web-shop", "demo/mobile/ios", "(8)")
	h.key("ctrl+g", "tab", "enter")
	h.mustSee("Projects of group demo on", "demo/web-shop", "(5)")
	h.mustNotSee("demo/mobile/ios")
	h.key("ctrl+g", "ctrl+u")
	h.typeText("no such group")
	h.key("enter")
	h.mustSay("is not a group path")
	h.key("ctrl+u", "enter")
	h.mustSee("Projects you maintain", "demo/mobile/ios", "(9)")
	h.mustNotSee("demo/mobile/kiosk")
	// From all projects, the question starts at the selected one's group.
	h.filter("android")
	h.key("ctrl+g")
	h.mustSee("Group: demo/mobile", "[x] with its subgroups")
	h.key("esc")
	h.mustSee("Projects you maintain")
}

// A group named by its ID is shown by its path once the server names it,
// and the ctrl+g question starts at that path.
func TestGroupByIDShownByPath(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "101"})
	h.mustSee("Projects of group demo/mobile on", "demo/mobile/ios", "(3)", "projects of demo/mobile │")
	h.mustNotSee("group 101")
	h.key("ctrl+g")
	h.mustSee("Group: demo/mobile")
}
