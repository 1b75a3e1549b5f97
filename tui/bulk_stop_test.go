package tui

import (
	"reflect"
	"testing"
)

// The bulk key while a run is under way asks to stop it; stopped before
// its projects began, the run changes nothing and its report names them
// not reached.
func TestBulkRunStops(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "demo", Subgroups: true})
	before := allKeys(g)
	h.key("ctrl+a", "ctrl+o", "r", "enter")
	h.mustSay("whose groups' variables are unknown?")
	h.key("y")
	h.mustSay("in 2 of 7 marked projects?")
	begun := h.confirmRun()
	h.key("ctrl+o")
	h.mustSay("Stop rotating the keys SENTRY_DSN holds (0 of 2 done)?")
	h.advance(gracePeriod)
	h.key("y")
	h.mustSay("stopping once the projects under way end")
	h.runQueued(begun)
	for h.m.sh.bulk != nil {
		h.send(<-h.m.sh.bulk.events)
	}
	h.mustSay("not reached demo/web-shop", "not reached demo/mobile/ios")
	if !reflect.DeepEqual(allKeys(g), before) {
		t.Fatalf("a stopped run changed keys: %v, was %v", allKeys(g), before)
	}
}
