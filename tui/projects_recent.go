package tui

import (
	"fmt"
	"strings"
)

// recentProjects are the projects opened before, most recent first: shown
// first on the list, known by ID or path until the list names them.
type recentProjects []projectItem

func recentFrom(recent []RecentProject) recentProjects {
	var out recentProjects
	for _, r := range recent {
		if r.Path == "" && r.ID == 0 {
			continue
		}
		p := clean(r.Path)
		if p == "" {
			p = fmt.Sprint(r.ID)
		}
		out = append(out, projectItem{id: r.ID, path: p, lower: strings.ToLower(p), recent: true})
	}
	return out
}

// learn completes an entry known only by its path or ID from the list.
func (rs recentProjects) learn(it projectItem) {
	for i := range rs {
		r := &rs[i]
		if r.path == it.path || (r.id != 0 && r.id == it.id) {
			r.id, r.path, r.name, r.lower = it.id, it.path, it.name, it.lower
		}
	}
}

// opened puts it first, replacing an entry for the same project (by ID or
// path), with the name the list knows.
func (rs recentProjects) opened(it projectItem, known []projectItem) recentProjects {
	out := recentProjects{it}
	for _, r := range rs {
		if (it.id != 0 && r.id == it.id) || r.path == it.path {
			if it.name == "" {
				out[0].name = r.name
			}
			continue
		}
		out = append(out, r)
	}
	for _, p := range known {
		if p.id == it.id && it.id != 0 {
			out[0].name, out[0].lower = p.name, p.lower
		}
	}
	if out[0].lower == "" {
		out[0].lower = strings.ToLower(out[0].path + " " + out[0].name)
	}
	return out
}

// without is the list less the entry for path.
func (rs recentProjects) without(path string) recentProjects {
	for i, r := range rs {
		if r.path == path {
			return append(rs[:i:i], rs[i+1:]...)
		}
	}
	return rs
}
