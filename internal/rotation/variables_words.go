package rotation

// What a rotation says of the CI/CD variables that hold its keys' DSNs.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/safetext"
	"github.com/errtrack/errtrack/internal/wording"
)

// StillOld names the variables that hold the old DSN, or may (an update
// whose answer was lost).
func (r Rotation) StillOld() []string {
	var names []string
	for _, v := range r.Variables {
		if v.HoldsOld && !v.Done && !v.Outside {
			names = append(names, v.Label())
		}
	}
	return names
}

// OutsideScope names the variables of the rotated one's name, in other
// environment scopes, that hold the old DSN: the old key stays for them.
func (r Rotation) OutsideScope() []string {
	var names []string
	for _, v := range r.Variables {
		if v.Outside && v.HoldsOld && !v.Done {
			names = append(names, v.Label())
		}
	}
	return names
}

// VariablesPending reports chosen variables that do not hold the new DSN yet.
func (r Rotation) VariablesPending() bool {
	return slices.ContainsFunc(r.Variables, func(v VariableTarget) bool { return v.selected && !v.Done })
}

// Holding names the variables that hold the old DSN: "SENTRY_DSN (all
// environments), ...".
func (r Rotation) Holding() string {
	var names []string
	for _, v := range r.Variables {
		if v.HoldsOld {
			names = append(names, v.Label())
		}
	}
	return strings.Join(names, ", ")
}

// HoldsOldDSN says which variables still hold the old DSN, as a sentence's
// subject and verb: "CI/CD variable X holds" or "CI/CD variables X, Y hold".
func (r Rotation) HoldsOldDSN() string {
	still := r.StillOld()
	if len(still) == 1 {
		return "CI/CD variable " + still[0] + " holds"
	}
	return "CI/CD variables " + strings.Join(still, ", ") + " hold"
}

// OthersHoldingOldDSN says which variables hold the old DSN that nobody
// chose what to do with, as HoldsOldDSN does: the variables question.
func (r Rotation) OthersHoldingOldDSN() string {
	var names []string
	for _, v := range r.Variables {
		if v.HoldsOld && !v.selected && !v.Outside && !v.Done {
			names = append(names, v.Label())
		}
	}
	if len(names) == 1 {
		return "CI/CD variable " + names[0] + " holds"
	}
	return "CI/CD variables " + strings.Join(names, ", ") + " hold"
}

// Updating names the variables being pointed at the new DSN.
func (r Rotation) Updating() string {
	var names []string
	for _, v := range r.Variables {
		if v.selected {
			names = append(names, v.Label())
		}
	}
	return strings.Join(names, ", ")
}

// VariablesState says where each CI/CD variable stands.
func (r Rotation) VariablesState(c Checks) string {
	var parts []string
	if r.VariablesErr != nil && r.New != nil {
		parts = append(parts, "The CI/CD variables could not be read: check whether any holds the old DSN ("+c.Variables+").")
	}
	for _, v := range r.Variables {
		switch {
		case v.Done && v.Created:
			parts = append(parts, fmt.Sprintf("CI/CD variable %s was created with the new DSN (masked, raw, not protected).", v.Label()))
		case v.Done:
			parts = append(parts, fmt.Sprintf("CI/CD variable %s holds the new DSN.", v.Label()))
		case v.Unknown:
			parts = append(parts, fmt.Sprintf("CI/CD variable %s may or may not hold the new DSN: %s.", v.Label(), c.Variables))
		case v.Moved:
			parts = append(parts, fmt.Sprintf("CI/CD variable %s changed since the plan, so it was left as it is: check what it holds (%s).", v.Label(), c.Variables))
		case v.Outside && v.HoldsOld:
			parts = append(parts, fmt.Sprintf("CI/CD variable %s, outside this rotation's environment scope, still holds the old DSN: rotate it too (the old key goes with the last rotation).", v.Label()))
		case r.New == nil:
		case v.HoldsOld && r.Deleted:
			parts = append(parts, fmt.Sprintf("CI/CD variable %s still holds the DSN of the deleted key: set it to the new DSN.", v.Label()))
		case v.HoldsOld:
			parts = append(parts, fmt.Sprintf("CI/CD variable %s still holds the old DSN.", v.Label()))
		case v.Exists:
			parts = append(parts, fmt.Sprintf("CI/CD variable %s was not changed.", v.Label()))
		default:
			parts = append(parts, fmt.Sprintf("CI/CD variable %s was not created.", v.Label()))
		}
	}
	if len(r.Hidden) > 0 && r.New != nil {
		parts = append(parts, fmt.Sprintf("Hidden CI/CD variables cannot be read, so errtrack cannot tell whether they hold the old DSN: %s.", strings.Join(r.Hidden, ", ")))
	}
	return strings.Join(parts, " ")
}

// GroupUsesText names the group variables holding the old DSN: "CI/CD
// variable SENTRY_DSN (environment production) of group web", or
// "CI/CD variables A (…) of group web and B (…) of group web/app".
func (r Rotation) GroupUsesText() string { return groupUsesText(r.GroupUses) }

func groupUsesText(uses []Use) string {
	names := make([]string, len(uses))
	for i, u := range uses {
		names[i] = VariableTarget{Key: u.Variable, Scope: u.Scope}.Label() + " of group " + safetext.Excerpt(u.Group, 80)
	}
	if len(names) == 1 {
		return "CI/CD variable " + names[0]
	}
	return "CI/CD variables " + strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// GroupUsesWarning says what the group variables holding the old DSN mean
// for the delete; "" when there are none.
func (r Rotation) GroupUsesWarning() string {
	unread := ""
	if len(r.GroupsUnread) > 0 {
		unread = wording.Capitalize(projectscope.GroupVariables{Unread: r.GroupsUnread}.UnreadWords()) + ": deploys that read them may stop reporting once the old key is gone."
	}
	if len(r.GroupUses) == 0 {
		return unread
	}
	if unread != "" {
		unread = " " + unread
	}
	holds, them := "holds", "it"
	if len(r.GroupUses) > 1 {
		holds, them = "hold", "them"
	}
	return "The " + r.GroupUsesText() + " " + holds + " the old DSN: errtrack does not change group variables, so point " + them + " at the new DSN in the group's settings, or deploys that read " + them + " stop reporting once the old key is gone." + unread
}
