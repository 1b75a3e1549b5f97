package tui

import "testing"

// q at a rotation's question cancels it, as n and esc do: the question
// closes, the old key stays, and the console does not quit under it.
func TestQAtARotationsQuestionCancelsIt(t *testing.T) {
	h, g := console(t, "1")
	h.key("down", "R")
	h.mustSee("Delete old key 2?")
	h.key("q")
	if len(h.m.dialogs) != 0 {
		t.Fatal("q left the question open")
	}
	if ids := g.keyIDs(1); len(ids) != 3 || ids[1] != 2 {
		t.Fatalf("keys after q: %v", ids)
	}
	h.mustSay("Both keys exist: new key 4, old key 2 kept: d deletes it once its clients moved.")
}
