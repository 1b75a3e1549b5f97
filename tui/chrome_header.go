package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// breadcrumb says where the user is: the host, the group, the project
// (name, "group/project"), in width cells.
func breadcrumb(st Styles, host, name string, width int) string {
	name = clean(name)
	group := ""
	if i := strings.LastIndex(name, "/"); i > 0 {
		group, name = name[:i+1], name[i+1:]
	}
	host = strings.TrimPrefix(strings.TrimPrefix(host, "https://"), "http://")
	line := " " + clean(host) + " › " + group
	if lipgloss.Width(line)+lipgloss.Width(name) > width-1 {
		line = " " + group // narrow: the group and the project only
	}
	return truncate(st.Breadcrumb.Render(line)+st.Accent.Render(name), width)
}
