package tui

import (
	"strings"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/safetext"
)

// The rows of the projects list: each project as it is drawn and picked,
// and which rows show for the filter.

// maxField cuts a project's path or name: a server could send megabytes.
const maxField = 300

// projectItem is one pickable project.
type projectItem struct {
	id     int64
	path   string
	name   string
	lower  string // path and name, lower-cased, for filtering
	recent bool
	// skip says why a bulk change leaves the project alone (shown dimmed,
	// not markable); notMaintained: the user's role is below Maintainer,
	// so it is not opened either (every error tracking call would be
	// refused). role is the user's role there, when GitLab said it.
	skip          string
	notMaintained bool
	role          string
}

func itemFrom(p apiclient.Project) projectItem {
	path := safetext.Excerpt(p.PathWithNamespace, maxField)
	name := safetext.Excerpt(p.Name, maxField)
	it := projectItem{id: p.ID, path: path, name: name, lower: strings.ToLower(path + " " + name)}
	// One decision for both front ends: a group's list holds every
	// project the user has a role in, the skipped ones read whole.
	if skip := projectscope.SkipReason(p); skip != "" {
		it.skip, it.notMaintained = skip, !p.Archived
		if lvl := p.AccessLevel(); lvl > 0 {
			it.role = projectscope.RoleName(lvl)
		}
	}
	return it
}

func (it projectItem) ref() apiclient.ProjectRef {
	if it.id > 0 {
		return apiclient.ProjectID(it.id)
	}
	ref, _ := apiclient.ParseProjectRef(it.path)
	return ref
}

// rowKind says where a visible row comes from.
type rowKind uint8

const (
	rowTyped  rowKind = iota // the filter text itself, as an ID or path
	rowRecent                // recently opened
	rowLoaded                // from the paged list
	rowFound                 // from a server-side search
)

type row struct {
	kind rowKind
	idx  int
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
