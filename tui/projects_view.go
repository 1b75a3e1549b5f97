package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"

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

func (s *projectsScreen) Help() helpMap {
	k := s.sh.keys
	filtering := s.Capturing()
	refresh := k.Refresh
	nav := []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
	if filtering {
		refresh = k.TextRefresh
		nav = []key.Binding{k.TextUp, k.TextDown, k.TextPageUp, k.TextPageDown, k.TextTop, k.TextBottom}
	}
	// Only what acts: on an empty list (nothing loaded, nothing matches)
	// there is nothing to open, move to or mark.
	rows := len(s.rows) > 0
	var short []key.Binding
	if rows {
		short = append(short, k.Open)
	}
	if filtering {
		short = append(short, with(k.ClearFilter, "end filter"))
	} else {
		short = append(short, k.FilterKeys)
	}
	if rows {
		short = append(short, k.Move)
	}
	short = append(short, refresh)
	if it, ok := s.selected(); ok && it.recent {
		short = append(short, k.Forget)
	}
	switch {
	case len(s.marks) > 0:
		short = append([]key.Binding{k.Bulk}, short...)
	case s.sh.hasBulk:
		short = append([]key.Binding{with(k.Bulk, "last report")}, short...)
	case rows:
		short = append(short, k.Mark)
	}
	return helpMap{short: short, full: [][]key.Binding{
		{k.Open, k.FilterKeys, with(k.ClearFilter, "end filter"), refresh, k.Forget},
		{k.Mark, k.MarkAll, k.Bulk, k.Scope},
		nav,
	}}
}
