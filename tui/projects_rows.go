package tui

import (
	"strings"

	"github.com/errtrack/errtrack/apiclient"
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
	// notMaintained: a group's project the user only develops in (shown
	// dimmed with role, not markable: a bulk change would skip it; not
	// opened: every error tracking call would be refused).
	notMaintained bool
	role          string
}

// roleName is GitLab's name of an access level.
func roleName(level int) string {
	switch {
	case level >= 50:
		return "Owner"
	case level >= 40:
		return "Maintainer"
	case level >= 30:
		return "Developer"
	case level >= 20:
		return "Reporter"
	case level >= 10:
		return "Guest"
	case level > 0:
		return "Minimal access"
	}
	return "no role"
}

func itemFrom(p apiclient.Project) projectItem {
	path := safetext.Excerpt(p.PathWithNamespace, maxField)
	name := safetext.Excerpt(p.Name, maxField)
	it := projectItem{id: p.ID, path: path, name: name, lower: strings.ToLower(path + " " + name)}
	// A group's list holds every project the user is a member of; the
	// user's own list only the maintained ones (no permissions in it).
	if p.Permissions != nil && p.AccessLevel() < apiclient.MaintainerAccess {
		it.notMaintained, it.role = true, roleName(p.AccessLevel())
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
