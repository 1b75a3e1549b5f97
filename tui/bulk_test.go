package tui

import (
	"context"
	"slices"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
)

func settingsOf(t *testing.T, g gitlab, id int64) *apiclient.Settings {
	t.Helper()
	s, _, err := g.api.GetSettings(context.Background(), apiclient.ProjectID(id))
	if err != nil {
		return nil
	}
	return s
}

// space marks projects on the list; ctrl+o offers the changes to them, each
// with its plan first: No changes nothing, yes changes exactly the plan,
// with a report the user can reopen.
func TestBulkEnableMarkedProjects(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url})
	h.mustSee("demo/mobile-app")
	h.typeText("mobile-app")
	h.key("space")
	h.key("esc")
	h.typeText("paused")
	h.key("space")
	h.key("esc")
	h.mustSee("2 marked", "● demo/mobile-app", "● demo/paused")
	h.key("ctrl+o")
	h.mustSay("2 marked projects", "e  enable error tracking")
	h.key("e")
	h.mustSay("Enabling error tracking in 2 of 2 marked projects?", "demo/mobile-app: create integrated settings, enabled", "demo/paused: enable")
	h.key("n")
	if settingsOf(t, g, 2) != nil || settingsOf(t, g, 5).Active {
		t.Fatal("No changed something")
	}
	h.key("ctrl+o", "e")
	h.mustSay("Enabling error tracking in 2 of 2 marked projects?")
	h.key("y")
	h.mustSay("Enabling error tracking: done in 2 projects", "changed   demo/mobile-app", "changed   demo/paused")
	if s := settingsOf(t, g, 2); s == nil || !s.Active || !s.Integrated || !settingsOf(t, g, 5).Active {
		t.Fatal("the plan was not carried out")
	}
	if s := settingsOf(t, g, 1); !s.Active {
		t.Fatal("an unmarked project changed")
	}
	h.key("esc")
	h.mustNotSee("● ")
	h.key("ctrl+o") // no marks: the last report
	h.mustSay("Enabling error tracking: done in 2 projects")
}

// errtrack --group demo --include-subgroups lists the group's projects,
// the ones the user does not maintain shown so and never marked; a bulk
// rotation is the rotation plan per project.
func TestBulkRotateInGroupScope(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "demo", Subgroups: true})
	h.mustSee("Projects of group demo and its subgroups", "demo/mobile/kiosk", "not a Maintainer")
	h.key("ctrl+a")
	h.mustSee("7 marked")
	h.key("ctrl+o", "r")
	h.mustSay("Rotating the keys SENTRY_DSN holds in 2 of 7 marked projects?", "demo/web-shop: rotate key 1", "demo/mobile/ios: rotate key 901", "skipped   demo/mobile-app: no CI/CD variable SENTRY_DSN")
	h.key("y")
	h.mustSay("Rotating the keys SENTRY_DSN holds: done in 2 projects")
	if ids := g.keyIDs(1); slices.Contains(ids, 1) || len(ids) != 2 {
		t.Fatalf("web-shop keys %v", ids)
	}
	if ids := g.keyIDs(7); slices.Contains(ids, 901) || len(ids) != 1 {
		t.Fatalf("ios keys %v", ids)
	}
	if g.srv.KeyCount(9) != 0 || g.srv.KeyCount(8) != 1 {
		t.Fatal("a skipped project changed")
	}
}

// ctrl+g narrows the list to the selected project's group, then the group
// above, then all projects again.
func TestScopeFollowsTheGroups(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url})
	h.typeText("ios")
	h.key("ctrl+g")
	h.mustSee("Projects of group demo/mobile and its subgroups", "demo/mobile/android", "demo/mobile/kiosk")
	h.mustNotSee("demo/web-shop")
	h.key("ctrl+g")
	h.mustSee("Projects of group demo and its subgroups", "demo/web-shop", "demo/mobile/ios")
	h.key("ctrl+g")
	h.mustSee("Projects you maintain")
	h.mustNotSee("demo/mobile/kiosk")
}
