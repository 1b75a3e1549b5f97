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
	var line, state string
	switch {
	case r.kind == rowTyped && s.filter.foreign != "":
		line = "  ✗ " + clean(s.filter.typed.String()) + " is on " + s.filter.foreign + ", not on this GitLab"
	case r.kind == rowTyped:
		line = "  → open " + clean(s.filter.typed.String())
	default:
		it := s.item(r)
		name := it.name
		if r.kind == rowRecent {
			name += "  (recent)"
		}
		if g := s.scope.group; g != nil && projectscope.SharedInto(g.Path, it.path) {
			name += "  (shared)"
		}
		mark := "  "
		if it.id != 0 && s.marks.has(it.id) {
			mark = "● "
		}
		line = mark + pad(it.path, pathW) + " " + pad(name, nameW) + " "
		state = s.overviews.text(it.id, stateW)
		switch {
		case it.notMaintained && it.role != "":
			state = "not a Maintainer (" + it.role + ")"
		case it.notMaintained:
			state = "not a Maintainer"
		case it.skip != "":
			state = "archived: skipped"
		}
	}
	cols := 2 + pathW + 1 + nameW + 1
	switch {
	case i == s.list.cursor:
		if r.kind != rowTyped {
			line = pad(line, cols) + state
		}
		return st.Selected.Render(pad(line, s.width))
	case r.kind != rowTyped && s.item(r).skip != "":
		// Dimmed whole: nothing to do there; the words say why.
		return st.Subtle.Render(pad(pad(line, cols)+state, s.width))
	case r.kind != rowTyped:
		// The state in its colour; the words say it too.
		rest := max(s.width-cols, 0)
		return pad(line, cols) + s.overviews.style(st, s.item(r).id).Render(pad(state, rest))
	}
	return pad(line, s.width)
}
