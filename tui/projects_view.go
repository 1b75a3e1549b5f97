package tui

import (
	"fmt"
	"strings"

	"github.com/errtrack/errtrack/internal/projectscope"
)

func (s *projectsScreen) View() string {
	st := s.sh.styles
	var b strings.Builder
	b.WriteString(st.Title.Render(s.scope.heading()) + st.Subtle.Render(" on "+s.sh.deps.Host+" ("+s.count()+")") + "\n")
	b.WriteString(" " + fieldView(s.filter.input, st) + "\n")
	switch {
	case len(s.rows) == 0 && s.pages.load.loading() && len(s.pages.items) == 0:
		b.WriteString(st.Subtle.Render(" Loading projects…"))
	case len(s.rows) == 0 && s.pages.load.err != nil:
	case len(s.rows) == 0 && s.filter.query != "":
		b.WriteString(st.Subtle.Render(" No project matches. Type a full path (group/project) or an ID to open it directly."))
	case len(s.rows) == 0:
		b.WriteString(st.Subtle.Render(" You maintain no projects here. Press / and type a project ID or path to open one."))
	}
	// The columns keep together on a wide terminal: the name stops at 40
	// cells, so the state sits beside it, not a screen away.
	stateW := min(30, max(s.width/3, 12))
	pathW := min(max((s.width-stateW)/2, 20), 50)
	nameW := min(max(s.width-2-pathW-1-stateW-1, 0), 40)
	start, end := s.list.window()
	for i := start; i < end; i++ {
		b.WriteString(s.rowLine(i, pathW, nameW, stateW) + "\n")
	}
	if end == len(s.rows) && !s.pages.complete && s.pages.load.loading() && len(s.rows) > 0 {
		b.WriteString(st.Subtle.Render("  loading more…"))
	}
	if err := s.pages.load.err; err != nil && len(s.pages.items) == 0 && !s.pages.load.loading() {
		for _, l := range wrap("Could not load projects: "+s.sh.explain(err), s.width-2) {
			b.WriteString(" " + st.Error.Render(l) + "\n")
		}
	}
	return b.String()
}

// count says how many projects the list holds, match and are marked.
func (s *projectsScreen) count() string {
	count := fmt.Sprintf("%d loaded", len(s.pages.items))
	if s.pages.complete {
		count = fmt.Sprintf("%d", len(s.pages.items))
	}
	if s.filter.query != "" {
		n := len(s.rows)
		if s.filter.typed != nil {
			n--
		}
		noun := "matches"
		if n == 1 {
			noun = "match"
		}
		count = fmt.Sprintf("%d %s of %s", n, noun, count)
	}
	if len(s.marks) > 0 {
		count += fmt.Sprintf(", %d marked", len(s.marks))
	}
	return count
}

// rowLine draws row i: its mark, path, name and state, in columns.
func (s *projectsScreen) rowLine(i, pathW, nameW, stateW int) string {
	st := s.sh.styles
	r := s.rows[i]
	if r.kind == rowTyped {
		line := "  → open " + clean(s.filter.typed.String())
		if s.filter.foreign != "" {
			line = "  ✗ " + clean(s.filter.typed.String()) + " is on " + s.filter.foreign + ", not on this GitLab"
		}
		if i == s.list.cursor {
			return st.Selected.Render(pad(line, s.width))
		}
		return pad(line, s.width)
	}
	it := s.item(r)
	k := rowKey{path: it.path, name: it.name, marked: it.id != 0 && s.marks.has(it.id), selected: i == s.list.cursor,
		skipped: it.skip != "", tone: s.overviews.tone(it.id), pathW: pathW, nameW: nameW, stateW: stateW, width: s.width, palette: st.palette}
	if r.kind == rowRecent {
		k.name += "  (recent)"
	}
	if g := s.scope.group; g != nil && projectscope.SharedInto(g.Path, it.path) {
		k.name += "  (shared)"
	}
	k.state = s.overviews.text(it.id, stateW)
	switch {
	case it.notMaintained && it.role != "":
		k.state = "not a Maintainer (" + it.role + ")"
	case it.notMaintained:
		k.state = "not a Maintainer"
	case it.skip != "":
		k.state = "archived: skipped"
	}
	if line, ok := s.drawn[k]; ok {
		return line
	}
	line := k.draw(st)
	s.redrawn++
	if s.drawn == nil || len(s.drawn) >= maxDrawnRows {
		s.drawn = make(map[rowKey]string, maxDrawnRows)
	}
	s.drawn[k] = line
	return line
}

// maxDrawnRows bounds the rows kept drawn: many screens' worth.
const maxDrawnRows = 1024

// rowKey is everything a project's row shows and how: a row is drawn again
// only when one of them changes. Drawing measures every cell grapheme by
// grapheme, and drawing each row on every frame cost most of the console's
// time while a plan's answers arrived.
type rowKey struct {
	path, name, state           string
	marked, selected, skipped   bool
	tone                        stateTone
	pathW, nameW, stateW, width int
	palette                     palette
}

// draw draws the row.
func (k rowKey) draw(st Styles) string {
	mark := "  "
	if k.marked {
		mark = "● "
	}
	line := mark + pad(k.path, k.pathW) + " " + pad(k.name, k.nameW) + " "
	cols := 2 + k.pathW + 1 + k.nameW + 1
	switch {
	case k.selected:
		return st.Selected.Render(pad(pad(line, cols)+k.state, k.width))
	case k.skipped:
		// Dimmed whole: nothing to do there; the words say why.
		return st.Subtle.Render(pad(pad(line, cols)+k.state, k.width))
	}
	// The state in its colour; the words say it too.
	rest := max(k.width-cols, 0)
	return pad(line, cols) + k.tone.style(st).Render(pad(k.state, rest))
}
