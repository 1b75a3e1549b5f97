package tui

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

// The bug of issue 17: R, esc, and typing a filter while the create is in
// flight. The variables question opens under the typing; the keys typed
// go to the filter, none answers it, and it is answered only once the user
// stopped typing long enough to read it.
func TestQuestionOnResultIgnoresTypedKeys(t *testing.T) {
	h, g := console(t, "1")
	rotate := h.holdWrite("R") // key 1: SENTRY_DSN holds its DSN
	h.key("esc")
	h.mustSee("Projects you maintain")
	h.keyNow("/", "m")
	h.run(rotate) // the question opens now
	h.mustSay("Update its CI/CD variables?")
	h.keyNow("y", "y")
	h.advance(gracePeriod / 2)
	h.keyNow("y") // still typing: the grace starts again
	if v := g.srv.Variables(1)[0].Value; v != "{{dsn:1}}" {
		t.Fatalf("a typed key updated the variable: %q", v)
	}
	if ids := g.keyIDs(1); !slices.Contains(ids, 1) {
		t.Fatalf("a typed key deleted key 1: %v", ids)
	}
	h.mustSay("Update its CI/CD variables?")
	if f := h.m.top().(*projectsScreen).filter.input.Value(); f != "myyy" {
		t.Fatalf("filter %q: the typed keys did not reach the field being typed in", f)
	}
	// Once the keyboard was quiet, the question takes the answer.
	h.advance(gracePeriod)
	h.keyNow("n")
	h.mustSay("Delete old key 1?")
	h.keyNow("y") // the delete question opened on a result too
	if ids := g.keyIDs(1); !slices.Contains(ids, 1) {
		t.Fatalf("a key typed at once deleted key 1: %v", ids)
	}
	h.key("n")
	h.mustSay("Both keys exist")
}

// A question opened by the user's own key (d asks after a lookup, v at
// once) still takes the answer a reader gives.
func TestQuestionsStillTakeAnswers(t *testing.T) {
	h, g := console(t, "1")
	h.key("down", "d")
	h.mustSay("Delete client key 2 of demo/web-shop?")
	h.key("y")
	if ids := g.keyIDs(1); len(ids) != 1 || ids[0] != 1 {
		t.Fatalf("keys %v", ids)
	}
}

// Declining the variables question, or the delete, still leaves the new
// DSN on the clipboard, and the status line says where it went.
func TestRotateCopiesNewDSNWhateverTheAnswer(t *testing.T) {
	h, g := console(t, "1")
	h.key("R")
	h.mustSay("Update its CI/CD variables?")
	newKey := g.srv.Keys(1)[2]
	if c := h.copied(); len(c) != 1 || !strings.Contains(c[0], newKey.PublicKey) {
		t.Fatalf("copied %v before any answer", c)
	}
	h.mustSay("the DSN of the new key 4")
	h.key("esc")
	h.key("n")
	h.mustSay("Both keys exist", "SENTRY_DSN (all environments) still holds the old DSN")
	if c := h.copied(); len(c) != 1 {
		t.Fatalf("copied %d times", len(c))
	}
}

// d names the CI/CD variables that hold the key's DSN.
func TestDeleteNamesVariablesHoldingTheDSN(t *testing.T) {
	h, _ := console(t, "1")
	h.key("d")
	h.mustSay("Delete client key 1 of demo/web-shop?", "CI/CD variable SENTRY_DSN (all environments) holds this key's DSN")
	h.key("n")
	h.key("down", "d")
	h.mustSay("Delete client key 2 of demo/web-shop?")
	h.mustNotSee("holds this key's DSN")
}

// o opens the project's error tracking settings page; with no browser the
// status line gives the address.
func TestOpenInGitLab(t *testing.T) {
	g := demoGitLab(t)
	var opened []string
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "1", OpenURL: func(u string) error { opened = append(opened, u); return nil }})
	h.key("o")
	want := g.url + "/demo/web-shop/-/settings/operations#js-error-tracking-settings"
	if len(opened) != 1 || opened[0] != want {
		t.Fatalf("opened %v", opened)
	}
	h = newHarness(t, Deps{API: g.api, Host: g.url, Project: "1"})
	h.key("o")
	h.mustSay("Open in your browser: " + want)
}

// The console's delete question names the group variables holding the old
// DSN; confirming it, the user has seen them, and the old key goes.
func TestRotationNamesGroupVariables(t *testing.T) {
	g := newGitLab(t, mockserver.Options{ScaleGroup: 1}, mockserver.TokenMaintainer)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "fleet/app-001"})
	h.key("R")
	h.mustSay("Update its CI/CD variables?")
	h.key("y")
	h.mustSay("The CI/CD variable FLEET_SENTRY_DSN (environment production) of group fleet holds the old DSN")
	h.key("y")
	h.mustSay("Rotated")
	if ids := g.keyIDs(2001); len(ids) != 1 || ids[0] == 200001 {
		t.Fatalf("keys %v", ids)
	}
}

func TestRotate(t *testing.T) {
	h, g := console(t, "1")
	h.key("down", "R") // key 2: no CI/CD variable holds its DSN
	h.mustSee("New key 4 created in demo/web-shop. Delete old key 2?", "The new DSN, copied to the clipboard", "Send test event")
	if c := h.copied(); len(c) != 1 || !strings.Contains(c[0], g.srv.Keys(1)[2].PublicKey) {
		t.Fatalf("copied %v", c)
	}
	h.key("y")
	if ids := g.keyIDs(1); len(ids) != 2 || ids[0] != 1 || ids[1] != 4 {
		t.Fatalf("keys after rotate: %v", ids)
	}
	h.mustSee("Rotated: new key 4 replaces key 2", "which is deleted")
}

// Rotating the key whose DSN SENTRY_DSN holds: one question names the
// variable, the update comes before the old key's deletion, and a test
// event can be sent in between.
func TestRotateUpdatesVariableAndVerifies(t *testing.T) {
	h, g := console(t, "1")
	h.key("R")
	h.mustSay("Update its CI/CD variables?", "CI/CD variable SENTRY_DSN (all environments) holds the old key's DSN")
	if g.srv.KeyCount(1) != 3 {
		t.Fatal("no new key before the question")
	}
	h.key("y")
	h.mustSay("CI/CD variable SENTRY_DSN (all environments) holds the new DSN.", "Delete old key 1?")
	newKey := g.srv.Keys(1)[2]
	if v := g.srv.Variables(1)[0]; !strings.Contains(v.Value, newKey.PublicKey) || !v.Masked {
		t.Fatalf("variable %+v", v)
	}
	h.key("v")
	h.mustSay("The test event through the new DSN was accepted by ingestion (HTTP 200).", "Delete old key 1?")
	if g.srv.Envelopes(1) != 1 {
		t.Fatal("no event received")
	}
	h.key("y")
	h.mustSay("Rotated: new key 4 replaces key 1, which is deleted; SENTRY_DSN holds the new DSN.")
	if ids := g.keyIDs(1); len(ids) != 2 || ids[1] != 4 {
		t.Fatalf("keys %v", ids)
	}
}

// Declining the variables still offers the old key's deletion, saying what
// the variable holds; a failed update keeps the old key.
func TestRotateVariableDeclinedOrFailing(t *testing.T) {
	h, g := console(t, "1")
	h.key("R", "n")
	h.mustSay("Delete old key 1?", "CI/CD variable SENTRY_DSN (all environments) still holds the old DSN",
		"Deploys that read SENTRY_DSN (all environments) stop reporting once the old key is gone")
	h.key("n")
	h.mustSay("Both keys exist", "SENTRY_DSN (all environments) still holds the old DSN")
	if g.srv.Variables(1)[0].Value != "{{dsn:1}}" {
		t.Fatal("the variable changed")
	}

	g = demoGitLab(t)
	api := faulty(g.api)
	h = newHarness(t, Deps{API: api, Host: g.url, Project: "1"})
	api.fail("UpdateVariableValue", &apiclient.APIError{Kind: apiclient.ErrForbidden, StatusCode: 403, Method: "PUT", Path: "/api/v4/projects/1/variables/SENTRY_DSN"})
	h.key("R", "y")
	h.mustSay("Updating the CI/CD variable SENTRY_DSN (all environments) failed, so the old key is not deleted", "Both keys exist")
	if g.srv.KeyCount(1) != 3 {
		t.Fatal("a key was deleted")
	}
}

// A refused test event ends the rotation with both keys, as --verify does
// on the command line: the new DSN does not work yet.
func TestRotateRefusedTestEvent(t *testing.T) {
	g := demoGitLab(t)
	api := faulty(g.api)
	h := newHarness(t, Deps{API: api, Host: g.url, Project: "1"})
	h.key("down", "R")
	api.refuseEvents(401)
	h.key("v")
	h.mustSay("refused the test event (HTTP 401", "so the old key is not deleted", "Both keys exist")
	h.mustNotSee("Delete old key 2?")
	if g.srv.KeyCount(1) != 3 {
		t.Fatal("a key was deleted")
	}
}

// After a rotation whose old key is kept, the status says so.
func TestRotateKeepOldSaysSo(t *testing.T) {
	h, g := console(t, "1")
	h.key("down", "R", "n")
	h.mustSay("Both keys exist: new key 4, old key 2 kept: d deletes it once its clients moved.")
	if g.srv.KeyCount(1) != 3 {
		t.Fatal("the old key was touched")
	}
}

// One rotation of a key at a time, named by its ref: Sentry keys, all
// without an ID, are told apart before the plan has read them.
func TestRotationConflictsByKey(t *testing.T) {
	a := rotationWrite{old: "aaaaaaaa1"}
	b := rotationWrite{old: "bbbbbbbb2"}
	if a.conflicts(b) || !a.conflicts(rotationWrite{old: "aaaaaaaa1"}) {
		t.Fatal("rotations of two keys conflict, or two of one key do not")
	}
}

// At 80x24 a soft rotation's result, with the Sentry keys' long names,
// takes at most two lines (it took three at 120 columns).
func TestSoftRotationResultTwoLinesAt80(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	h := w.console(t, mocksentry.TokenAdmin, Deps{})
	h.resize(80, 24)
	h.selectKey("Production")
	h.key("R")
	h.typeText("Production 2")
	h.key("enter")
	h.mustSee("Update variables")
	// the DSN copied: said in two lines too
	if lines := statusLines(h.m.sh.styles, h.m.status, 80, 24); len(lines) > 2 || !strings.Contains(strings.Join(lines, " "), "clipboard") {
		t.Fatalf("the copy's status at 80 columns:\n%s", strings.Join(lines, "\n"))
	}
	h.key("y")
	h.mustSee("Disable old key")
	h.key("y")
	h.mustSay("Rotated softly: new key \"Production 2\"", "(in SENTRY_DSN); old key", "disabled until you delete it (d).")
	if lines := statusLines(h.m.sh.styles, h.m.status, 80, 24); len(lines) > 2 {
		t.Fatalf("the result takes %d lines at 80 columns:\n%s", len(lines), strings.Join(lines, "\n"))
	}
}

// An unfinished rotation whose new key was deleted in GitLab's UI: going on
// with it stops at the check and says the console's way to start again (R,
// then m: make a new key), never "run the same command again".
func TestGoingOnWithAGoneNewKeySaysHowToRestart(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "1", Rotations: testRotations(t, g.url)})
	h.key("down", "R") // key 2: no variable holds its DSN
	h.mustSee("New key 4 created in demo/web-shop. Delete old key 2?")
	h.key("n") // both keys stay: the rotation stays open
	if _, _, err := g.api.DeleteClientKey(context.Background(), apiclient.ProjectID(1), 4); err != nil {
		t.Fatal(err)
	}
	h.key("r")
	h.mustSee("Client keys (2)")
	h.key("home", "down", "R") // key 2 again
	h.mustSee("Go on with key 4")
	h.key("y")
	h.mustSay("Key 4, made by the unfinished rotation of key 2", "Press R on the old key again and answer m")
	h.mustNotSee("run the same command again")
	if g.srv.KeyCount(1) != 2 {
		t.Fatalf("keys %v", g.srv.Keys(1))
	}
}
