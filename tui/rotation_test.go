package tui

import (
	"slices"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
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
