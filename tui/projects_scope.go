package tui

import (
	"strings"

	"github.com/errtrack/errtrack/apiclient"
)

// groupScope is the group whose projects the list shows (errtrack --group,
// or ctrl+g); no group: all the projects you maintain.
type groupScope struct {
	group     *apiclient.GroupRef
	subgroups bool
}

func scopeFrom(d Deps) groupScope {
	if d.Group == "" {
		return groupScope{}
	}
	g, err := apiclient.ParseGroupRef(d.Group)
	if err != nil {
		return groupScope{}
	}
	return groupScope{group: &g, subgroups: d.Subgroups}
}

// known: the scope's group path is known (a group named by ID is known
// once the list answered).
func (g groupScope) known() bool { return g.group != nil && g.group.Path != "" }

// holds reports whether a project's path is in the group (directly, or in
// a subgroup when those are shown); every project without a group.
func (g groupScope) holds(path string) bool {
	if g.group == nil {
		return true
	}
	rest, ok := strings.CutPrefix(strings.ToLower(path), strings.ToLower(g.group.String())+"/")
	return ok && (g.subgroups || !strings.Contains(rest, "/"))
}

// learnPath names a group given by ID by its path, once the list says it;
// the scope the user gave stays as it was. It reports a change.
func (g *groupScope) learnPath(path string) bool {
	if g.group == nil || g.group.Path != "" || path == "" {
		return false
	}
	named := *g.group
	named.Path = path
	g.group = &named
	return true
}

// title names the scope in the status bar.
func (g groupScope) title() string {
	if g.group == nil {
		return "projects"
	}
	t := "projects of " + g.group.String()
	if g.subgroups {
		t += " + subgroups"
	}
	return t
}

// heading names the scope above the list.
func (g groupScope) heading() string {
	if g.group == nil {
		return " Projects you maintain"
	}
	t := " Projects of group " + clean(g.group.String())
	if g.subgroups {
		t += " and its subgroups"
	}
	return t
}

// scopeMsg changes the group the list shows (nil: all your projects).
type scopeMsg struct {
	group     *apiclient.GroupRef
	subgroups bool
}

// parentGroup is the group a path sits in: "a/b/c" → "a/b"; "" at the top.
func parentGroup(path string) string {
	if i := strings.LastIndex(path, "/"); i > 0 {
		return path[:i]
	}
	return ""
}
