package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/wording"
)

// marks are the projects a change to several projects acts on, by ID, with
// what its plan needs of each.
type marks map[int64]apiclient.Project

func (ms marks) has(id int64) bool {
	_, on := ms[id]
	return on
}

// toggle marks it, or unmarks it.
func (ms marks) toggle(it projectItem) {
	if ms.has(it.id) {
		delete(ms, it.id)
		return
	}
	ms[it.id] = apiclient.Project{ID: it.id, PathWithNamespace: it.path, Name: it.name}
}

// dropOutside unmarks the projects scope does not hold: a change acts only
// on projects the user can see marked. It returns how many it unmarked.
func (ms marks) dropOutside(scope groupScope) int {
	if !scope.known() {
		return 0 // all projects, or a group whose path is not known yet
	}
	n := 0
	for id, p := range ms {
		if !scope.holds(p.PathWithNamespace) {
			delete(ms, id)
			n++
		}
	}
	return n
}

// dropMarksOutside unmarks the projects the list's group does not hold,
// and says so: they were marked a moment ago, elsewhere.
func (s *projectsScreen) dropMarksOutside() tea.Cmd {
	n := s.marks.dropOutside(s.scope)
	if n == 0 {
		return nil
	}
	them := "them"
	if n == 1 {
		them = "it"
	}
	return statusCmd(statusInfo, fmt.Sprintf("Unmarked %s outside group %s: a change acts only on projects the list shows. %s shows the group that holds %s.",
		wording.Projects(n, "marked"), clean(s.scope.group.String()), keyName(s.sh.keys.Scope), them))
}

// keepFailed unmarks the projects that did not fail: a change to them ran
// through, and the ones that failed stay marked to try again.
func (ms marks) keepFailed(failed map[int64]bool) {
	for id := range ms {
		if !failed[id] {
			delete(ms, id)
		}
	}
}

// sorted are the marked projects by path.
func (ms marks) sorted() []apiclient.Project {
	projects := make([]apiclient.Project, 0, len(ms))
	for _, p := range ms {
		projects = append(projects, p)
	}
	slices.SortFunc(projects, func(a, b apiclient.Project) int { return strings.Compare(a.PathWithNamespace, b.PathWithNamespace) })
	return projects
}

// mark marks or unmarks the selected project, where the cursor stays (as
// k9s's and lazygit's space do): the row marked is the row seen marked.
func (s *projectsScreen) mark() tea.Cmd {
	it, ok := s.selected()
	switch {
	case !ok || it.id == 0:
		return nil
	case it.skip != "":
		return statusCmd(statusInfo, it.path+": "+it.skip+", so a change to several projects would skip it.")
	}
	s.marks.toggle(it)
	return nil
}

// markAll marks every project shown (the filter's matches), or, when all
// are marked already, unmarks them.
func (s *projectsScreen) markAll() {
	var shown []projectItem
	all := true
	for _, r := range s.rows {
		if r.kind == rowTyped {
			continue
		}
		if it := s.item(r); it.id != 0 && it.skip == "" {
			shown = append(shown, it)
			all = all && s.marks.has(it.id)
		}
	}
	for _, it := range shown {
		if all {
			delete(s.marks, it.id)
		} else {
			s.marks[it.id] = apiclient.Project{ID: it.id, PathWithNamespace: it.path, Name: it.name}
		}
	}
}
