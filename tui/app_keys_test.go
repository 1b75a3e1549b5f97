package tui

import (
	"testing"
)

func TestQuitKeys(t *testing.T) {
	h, _ := console(t, "1")
	h.key("q")
	if !h.sentType("QuitMsg") {
		t.Fatal("q did not quit the project screen")
	}
	// On the project list q quits too, the first key most people press
	// (issue 31); in its filter (/) letters are text: only ctrl+c quits.
	h, _ = console(t, "")
	h.key("q")
	if !h.sentType("QuitMsg") {
		t.Fatal("q did not quit the project list")
	}
	h, _ = console(t, "")
	h.filter("q")
	if h.sentType("QuitMsg") {
		t.Fatal("q quit from the project list's filter, where it is a letter of a path")
	}
	h.key("ctrl+c")
	if !h.sentType("QuitMsg") {
		t.Fatal("ctrl+c did not quit")
	}
}
