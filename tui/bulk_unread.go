package tui

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/wording"
)

// unreadGroupsQuestion asks, before the plan, whether a rotation goes on
// in the projects it leaves alone because their groups' variables could
// not be read: those may hold the old DSNs, so only the user can say the
// old keys go anyway. No (the default) leaves them as they are.
func unreadGroupsQuestion(msg bulkPlannedMsg) (dialog, bool) {
	k, ok := msg.plan.Kind.(change.RotateChange)
	if !ok || k.DeleteWithUnreadGroups || msg.asked {
		return dialog{}, false
	}
	var projects, groups []string
	for _, it := range msg.plan.Items {
		var unsafe *rotation.UnsafeDeleteError
		if !errors.As(it.Err, &unsafe) || len(unsafe.UnreadGroups()) == 0 {
			continue
		}
		projects = append(projects, clean(it.Project.Path))
		for _, g := range unsafe.UnreadGroups() {
			if g = clean(g); !slices.Contains(groups, g) {
				groups = append(groups, g)
			}
		}
	}
	if len(projects) == 0 {
		return dialog{}, false
	}
	k.DeleteWithUnreadGroups = true
	body := []string{
		fmt.Sprintf("The CI/CD variables of %s %s could not be read (reading them needs the Owner role, or GitLab did not answer): they may hold these projects' old DSNs.",
			map[bool]string{true: "group", false: "groups"}[len(groups) == 1], strings.Join(groups, ", ")),
		"Left alone: " + strings.Join(projects, ", ") + ". Rotating there too deletes old keys a group variable may still hand out.",
	}
	d := confirmDialog(fmt.Sprintf("Rotate also in %s whose groups' variables are unknown?", wording.Projects(len(projects), "")), body,
		"Rotate them too", planBulkMsg{kind: k, projects: msg.projects})
	d.onNo = bulkPlannedMsg{plan: msg.plan, marked: msg.marked, projects: msg.projects, asked: true}
	return d, true
}
