package tui

import (
	"slices"
	"strings"

	"github.com/errtrack/errtrack/apiclient"
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
