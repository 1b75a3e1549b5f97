package tui

import (
	"image/color"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// A frame draws again only the rows whose project, selection, width or
// palette changed: the others are kept as drawn (drawing every row on
// every frame cost most of the console's time in a plan of 5,000
// projects).
func TestProjectRowsDrawnAgainOnlyWhenTheyChange(t *testing.T) {
	h, _ := console(t, "")
	h.resize(120, 40)
	h.mustSee("demo/web-shop")
	s := h.m.top().(*projectsScreen)
	redrawn := func(what string, want int, change func()) {
		t.Helper()
		h.view()
		before := s.redrawn
		change()
		first := h.view()
		if got := s.redrawn - before; got != want {
			t.Fatalf("%s drew %d rows again, want %d", what, got, want)
		}
		if h.view() != first || s.redrawn-before != want {
			t.Fatalf("%s: a second frame drew rows again", what)
		}
	}
	rows := len(s.rows)
	redrawn("a frame with nothing changed", 0, func() {})
	redrawn("moving down", 2, func() { h.key("down") })
	redrawn("marking", 1, func() { h.key("space") })
	redrawn("a new width", rows, func() { h.resize(110, 40) })
	redrawn("a new palette", rows, func() { h.send(tea.BackgroundColorMsg{Color: color.White}) })
	h.mustSee("● ")
}
