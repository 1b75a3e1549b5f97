package tui

import (
	"testing"
)

// A slow, stale answer never overwrites a newer one.
func TestStaleResultsIgnored(t *testing.T) {
	h, _ := console(t, "1")
	p := h.m.top().(*projectScreen)
	reload := h.sendOnly(keyMsg("r")) // a newer load starts, not yet answered
	inFlight := p.keys.data.req
	h.send(keysLoadedMsg{id: inFlight - 1, keys: nil}) // an older answer arrives late
	h.send(keysLoadedMsg{id: 0, keys: nil})
	h.mustSee("Client keys (2)")
	h.run(reload)
	h.mustSee("Client keys (2)")
	if p.Busy() {
		t.Fatal("still busy after the current answer")
	}
}
