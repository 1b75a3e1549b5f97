package tui

import (
	"strings"
	"testing"
)

func TestSpinnerTurnsWhileBusy(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	h := newHarness(t, Deps{API: f, Host: g.url, Project: "1"})
	cmd := h.holdWrite("n") // the create waits
	before := h.view()
	h.advance(spinnerInterval)
	if h.view() == before {
		t.Fatal("the spinner did not move")
	}
	h.run(cmd)
	h.mustSee("Created client key 4")
}

// --accessible: the status bar says "working…" in words and nothing moves;
// no colour is drawn.
func TestAccessibleConsoleDoesNotAnimate(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	h := newHarness(t, Deps{API: f, Host: g.url, Project: "1", Accessible: true})
	cmd := h.holdWrite("n")
	h.mustSee("working…")
	before := h.m.View().Content
	h.advance(10 * spinnerInterval)
	if h.m.View().Content != before {
		t.Fatal("the accessible console changed while nothing happened")
	}
	if strings.Contains(before, "\x1b[38;") || strings.Contains(before, "\x1b[48;") {
		t.Fatalf("the accessible console drew colour:\n%q", before)
	}
	h.run(cmd)
	h.mustSee("Created client key 4")
	h.mustNotSee("working…")
}
