package tui

import (
	"testing"

	"github.com/errtrack/errtrack/apiclient"
)

// space marks projects on the list; ctrl+o offers the changes to them, each
// with its plan first: No changes nothing, yes changes exactly the plan,
// with a report the user can reopen.
func TestBulkEnableMarkedProjects(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url})
	h.mustSee("demo/mobile-app")
	h.filter("mobile-app")
	h.key("space")
	h.key("esc")
	h.filter("paused")
	h.key("space")
	h.key("esc")
	h.mustSee("2 marked", "● demo/mobile-app", "● demo/paused")
	h.mustNotSee("● demo/web-shop")
	h.key("space") // the cursor's project, the first, marked and unmarked
	h.mustSee("3 marked", "● demo/legacy-api")
	h.key("up", "space")
	h.mustSee("2 marked")
	h.mustNotSee("● demo/legacy-api")
	h.key("ctrl+o")
	h.mustSay("2 marked projects", "e  enable error tracking")
	h.key("e")
	h.mustSay("Enable error tracking in 2 of 2 marked projects?", "planned demo/mobile-app create integrated settings, enabled", "planned demo/paused enable")
	h.key("n")
	h.mustSay("Enabling error tracking: nothing was changed.")
	if settingsOf(t, g, 2) != nil || settingsOf(t, g, 5).Active {
		t.Fatal("No changed something")
	}
	h.key("ctrl+o", "e")
	h.mustSay("Enable error tracking in 2 of 2 marked projects?")
	h.key("y")
	h.mustSay("Enabling error tracking: done in 2 projects", "changed demo/mobile-app", "changed demo/paused")
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

// The variable is asked: a name GitLab would refuse is said in the box,
// and one that holds no key's DSN leaves nothing to do; the next question
// offers it again.
func TestBulkAsksTheVariable(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "demo/mobile"})
	h.key("ctrl+a", "ctrl+o", "r")
	h.mustSay("Variable: SENTRY_DSN", "enter", "takes SENTRY_DSN, or type another name")
	h.typeText("NOT A NAME") // replaces the name offered, not appended to it
	h.key("enter")
	h.mustSay("A variable's name is letters, digits and _ only.", "Variable: NOT A NAME")
	h.key("ctrl+u")
	h.typeText("OLD_SENTRY_DSN")
	h.key("enter")
	h.mustSay("Rotating the keys OLD_SENTRY_DSN holds: nothing to do in the marked projects.",
		"skipped demo/mobile/ios OLD_SENTRY_DSN does not hold the DSN of", "skipped demo/mobile/android no CI/CD variable OLD_SENTRY_DSN")
	h.key("esc", "ctrl+o")
	h.mustSay("(OLD_SENTRY_DSN?)")
	h.key("v")
	h.mustSee("Variable: OLD_SENTRY_DSN", "takes OLD_SENTRY_DSN")
	h.key("esc", "ctrl+o", "r", "enter") // the name offered
	h.mustSay("Rotating the keys OLD_SENTRY_DSN holds: nothing to do")
	h.key("esc")
	if g.srv.KeyCount(7) != 1 || g.srv.Envelopes(7) != 0 {
		t.Fatal("a question changed something")
	}
}

// The question of a bulk rotation says it goes on from either front end,
// naming no command line.
func TestBulkRotationQuestionNamesNoCommand(t *testing.T) {
	g := demoGitLab(t)
	g.srv.MakeGroupOwner("demo", 1) // the groups' variables read: no question about them first
	g.srv.MakeGroupOwner("demo/mobile", 1)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "demo/mobile", Rotations: testRotations(t, g.url)})
	h.key("ctrl+a", "ctrl+o", "r", "enter")
	h.dialogSays("A run started again, from the console or the commands, goes on with the keys under way")
	h.mustNotSee("errtrack keys", "--group")
}

// A variable several environment scopes have, which the bulk menu cannot
// choose among: the plan says to rotate (or test) from the project with
// the console's key, not with a command's flag.
func TestBulkAmbiguousVariableNamesTheConsolesWay(t *testing.T) {
	g := demoGitLab(t)
	g.srv.MakeGroupOwner("demo", 1)
	if _, _, err := g.api.CreateVariable(t.Context(), apiclient.ProjectID(7), apiclient.NewVariable{Key: "SENTRY_DSN", Value: "x", EnvironmentScope: "staging"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ key, want string }{
		{"r", "open the project and rotate its key with R, which updates each variable holding its DSN"},
		{"v", "open the project and send one with v on its key"},
	} {
		h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "demo/mobile", Rotations: testRotations(t, g.url)})
		h.key("ctrl+a", "ctrl+o", c.key, "enter")
		h.dialogSays("2 variables named SENTRY_DSN in different environment scopes: " + c.want)
		h.mustNotSee("--environment-scope")
	}
}
