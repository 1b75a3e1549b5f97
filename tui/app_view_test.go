package tui

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

// frameFits checks that a frame has exactly h lines of at most w cells.
func frameFits(t *testing.T, frame string, w, h int) {
	t.Helper()
	lines := strings.Split(frame, "\n")
	if len(lines) != h {
		t.Fatalf("frame has %d lines, want %d", len(lines), h)
	}
	for _, l := range lines {
		if lipgloss.Width(l) > w {
			t.Fatalf("line wider than %d: %q", w, l)
		}
	}
}

// View draws and changes nothing: two draws of one state are the same,
// and drawing does not move the list.
func TestViewChangesNothing(t *testing.T) {
	h, _ := console(t, "1")
	s := h.m.top().(*projectScreen)
	before := s.keys.list
	a, b := h.m.View().Content, h.m.View().Content
	if a != b || s.keys.list != before {
		t.Fatal("View changed the state")
	}
}
