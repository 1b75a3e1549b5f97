package tui

import "strings"

// projectsScreen lists the projects the user maintains. Its keys are the
// list's (q quits, j/k move, enter opens) until / starts the filter, where
// everything typed is text ("type to filter, or a project ID or path") and
// esc ends it, as in gh-dash, lazygit and k9s. The first page shows at once
// and more pages load as the cursor nears the end; while the list is
// incomplete, the server is searched too.
//
// Each part keeps its own state, with its own methods, in its own file, and
// never names the screen: the pages (projects_pages.go), the filter
// (projects_filter.go), the recent projects, the group scope, the marks, the
// overviews and the rows' items (projects_rows.go). This file holds the
// screen's state and the rows it shows; the screen reads its parts
// (projects_load.go), answers keys and messages (projects_update.go), draws
// (projects_view.go) and starts changes to the marked projects
// (projects_bulk.go).
type projectsScreen struct {
	sh *shared

	pages     projectPages
	filter    projectFilter
	recent    recentProjects
	scope     groupScope
	marks     marks
	overviews overviews

	rows          []row
	list          listView
	width, height int
	// drawn keeps rows as last drawn (projects_view.go), a cache only.
	drawn   map[rowKey]string
	redrawn int // rows drawn anew, for the tests
}

func newProjectsScreen(sh *shared) *projectsScreen {
	s := &projectsScreen{sh: sh, pages: newProjectPages(), filter: newProjectFilter(), recent: recentFrom(sh.deps.Recent),
		scope: scopeFrom(sh.deps), marks: marks{}, overviews: newOverviews(0)}
	s.rebuild()
	return s
}

func (s *projectsScreen) Title() string { return s.scope.title() }

func (s *projectsScreen) Busy() bool {
	return s.pages.load.loading() || s.filter.found.loading() || s.filter.waiting
}

// Capturing: the filter is being typed in.
func (s *projectsScreen) Capturing() bool { return s.filter.input.Focused() }

func (s *projectsScreen) SetSize(w, h int) {
	s.width, s.height = w, h
	s.filter.input.SetWidth(max(w-4, 10))
	s.list.setHeight(h - 3)
}

// rebuild recomputes the visible rows; it runs on every keystroke of the
// filter, so it allocates nothing per item.
func (s *projectsScreen) rebuild() {
	s.rows = s.rows[:0]
	q := s.filter.query
	recentPaths := make(map[string]bool, len(s.recent))
	for i, it := range s.recent {
		if !s.scope.holds(it.path) {
			continue // scoped to a group: its projects only
		}
		recentPaths[it.path] = true
		if q == "" || strings.Contains(it.lower, q) {
			s.rows = append(s.rows, row{rowRecent, i})
		}
	}
	for i := range s.pages.items {
		it := &s.pages.items[i]
		if recentPaths[it.path] {
			continue
		}
		if q == "" || strings.Contains(it.lower, q) {
			s.rows = append(s.rows, row{rowLoaded, i})
		}
	}
	if q != "" && s.filter.foundNow() {
		for i, it := range s.filter.found.val {
			if !s.pages.ids[it.id] && !recentPaths[it.path] {
				s.rows = append(s.rows, row{rowFound, i})
			}
		}
	}
	// Opening what was typed comes after the real matches: "00299" is
	// scale/project-00299 before it is project 299.
	if s.filter.typed != nil {
		s.rows = append(s.rows, row{kind: rowTyped})
	}
	s.list.setTotal(len(s.rows))
}

func (s *projectsScreen) item(r row) projectItem {
	switch r.kind {
	case rowRecent:
		return s.recent[r.idx]
	case rowLoaded:
		return s.pages.items[r.idx]
	case rowFound:
		return s.filter.found.val[r.idx]
	}
	return projectItem{path: clean(s.filter.typed.String())}
}

func (s *projectsScreen) selected() (projectItem, bool) {
	if len(s.rows) == 0 {
		return projectItem{}, false
	}
	r := s.rows[s.list.cursor]
	if r.kind == rowTyped {
		return projectItem{}, false
	}
	return s.item(r), true
}
