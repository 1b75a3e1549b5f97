package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// A run's events that came while the console drew its last frame are
// delivered together: one frame for them all, not one per event (a run
// over 5,000 projects sends 10,000).
func TestBulkProgressComesInBatches(t *testing.T) {
	g := newGitLab(t, mockserver.Options{ScaleGroup: 20}, mockserver.TokenMaintainer)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "fleet"})
	h.mustSee("fleet/app-020")
	h.key("ctrl+a", "ctrl+o", "d")
	h.mustSay("Disable error tracking in 20 of 20 marked projects?")
	b, ok := h.sendOnly(h.confirmRun())().(tea.BatchMsg)
	if !ok || len(b) != 2 {
		t.Fatalf("the begun run is not the run and its wait: %T", b)
	}
	b[0]() // the run, to its end: its 41 messages wait in the channel
	msgs := h.collect(b[1])
	if len(msgs) != 1 {
		t.Fatalf("the wait delivered %d messages, want one batch", len(msgs))
	}
	batch, ok := msgs[0].(bulkBatchMsg)
	if !ok || len(batch) != 41 {
		t.Fatalf("the wait delivered %T of %d, want the 41 events at once", msgs[0], len(batch))
	}
	h.send(batch)
	h.mustSay("Disabling error tracking: done in 20 projects")
	if h.m.sh.bulk != nil {
		t.Fatal("the run is still under way after its end was delivered")
	}
}
