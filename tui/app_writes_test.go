package tui

import (
	"testing"
)

func TestOneCreateAtATime(t *testing.T) {
	h, g := console(t, "1")
	first := h.holdWrite("n")
	h.key("n")
	h.mustSee("already under way")
	h.run(first)
	if g.srv.KeyCount(1) != 3 {
		t.Fatalf("%d keys: two creates ran", g.srv.KeyCount(1))
	}
}
