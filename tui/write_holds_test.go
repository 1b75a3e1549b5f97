package tui

import (
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// While a change to marked projects is at a project, the user's own
// rotation there is refused (both would make a key); once the run ended
// there, it starts. Whichever came first keeps the project.
func TestOwnRotationWaitsForTheBulkRunAtItsProject(t *testing.T) {
	g := newGitLab(t, mockserver.Options{ScaleGroup: 3}, mockserver.TokenMaintainer)
	led := testRotations(t, g.url)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "fleet", Rotations: led})
	h.key("ctrl+a", "ctrl+o", "r", "enter")
	h.mustSay("in 2 of 3 marked projects?")
	h.runQueued(h.confirmRun())
	for len(h.m.sh.bulk.running) == 0 {
		h.step()
	}
	var at string
	for i := range h.m.sh.bulk.running {
		at = h.m.sh.bulk.plan.Items[i].Project.Path
	}
	h.filter(at)
	h.key("enter")
	h.mustSee("Client keys (")
	h.key("R")
	h.mustSay("Rotating the keys SENTRY_DSN holds is at " + at + " (its key creation")
	if len(h.m.sh.pending) != 0 {
		t.Fatal("the user's rotation started while the run was at the project")
	}
	for h.m.sh.bulk != nil {
		h.send(<-h.m.sh.bulk.events)
	}
	h.key("esc", "r") // the report closed; the keys the run made
	h.key("R")
	h.mustNotSee("is at " + at)
	h.mustSee("New key", "created in "+at)
}

// A change to marked projects leaves out a project where the user's own
// change holds what it needs (a key being created there), and goes ahead
// where the user's change holds something else (its settings).
func TestBulkRunLeavesOutWhatTheUsersChangeHolds(t *testing.T) {
	g := newGitLab(t, mockserver.Options{ScaleGroup: 3}, mockserver.TokenMaintainer)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "fleet", Rotations: testRotations(t, g.url)})
	h.filter("fleet/app-002")
	h.key("enter")
	h.mustSee("Client keys (")
	create := h.holdWrite("n")
	h.key("esc")
	h.filter("fleet/app-003")
	h.key("enter")
	h.mustSee("Settings (")
	h.key("tab", "a") // disable, asked
	settings := h.holdWrite("y")
	h.key("esc", "esc")
	h.key("ctrl+a", "ctrl+o", "r", "enter")
	h.mustSay("in 2 of 3 marked projects?")
	h.runQueued(h.confirmRun())
	for h.m.sh.bulk != nil {
		h.send(<-h.m.sh.bulk.events)
	}
	h.dialogSays("failed fleet/app-002 not started: your own change to this project was under way", "changed fleet/app-003")
	h.run(create)
	h.run(settings)
}
