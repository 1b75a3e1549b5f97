package tui

import (
	"testing"
)

// A key created while a refresh is in flight is not lost when the older
// list arrives.
func TestCreateDuringRefreshIsKept(t *testing.T) {
	h, _ := console(t, "1")
	reload := h.sendOnly(keyMsg("r"))
	stale := h.collect(reload) // read before the create
	h.key("n")
	h.mustSee("Client keys (3)")
	for _, m := range stale {
		h.send(m)
	}
	h.mustSee("Client keys (3)")
}

func TestKeysTabWarnsWhenTrackingIsOff(t *testing.T) {
	h, _ := console(t, "5") // demo/paused
	h.mustSee("Error tracking is disabled for this project")
	h, _ = console(t, "2")
	h.mustSee("not configured for this project yet (tab")
	h, _ = console(t, "1")
	h.mustNotSee("Error tracking is disabled", "not configured")
}

// A key created while a list was in flight, then deleted before it
// arrived, does not come back with that list.
func TestCreatedThenDeletedDuringRefresh(t *testing.T) {
	h, g := console(t, "1")
	reload := h.sendOnly(keyMsg("r"))
	stale := h.collect(reload) // read before the create
	h.key("n")                 // key 4
	h.mustSee("Client keys (3)")
	h.key("G", "d", "y") // and deleted again
	h.mustSee("Deleted client key 4", "Client keys (2)")
	for _, m := range stale {
		h.send(m)
	}
	h.mustSee("Client keys (2)")
	if ids := g.keyIDs(1); len(ids) != 2 {
		t.Fatalf("server keys %v", ids)
	}
}
