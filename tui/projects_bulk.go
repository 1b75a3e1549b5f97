package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/wording"
)

// bulk offers the changes to the marked projects; with none marked, it
// shows the last bulk change's report.
func (s *projectsScreen) bulk() tea.Cmd {
	if r := s.sh.bulk; r != nil {
		return msgCmd(openDialogMsg{d: stopBulkQuestion(r)})
	}
	if len(s.marks) == 0 {
		if s.sh.hasBulk {
			return msgCmd(openDialogMsg{d: s.sh.lastBulk})
		}
		return statusCmd(statusInfo, "Mark projects first: "+keyName(s.sh.keys.Mark)+" marks the selected one, "+keyName(s.sh.keys.MarkAll)+" the ones shown.")
	}
	projects := s.marks.sorted()
	k := s.sh.keys
	plan := func(kind change.Kind) tea.Msg { return planBulkMsg{kind: kind, projects: projects} }
	variable := s.sh.lastVariable
	if variable == "" {
		variable = defaultBulkVariable
	}
	// A rotation and a test event use the DSN a CI/CD variable holds:
	// which one is asked first.
	ask := func(kind func(variable string) change.Kind, title string) tea.Msg {
		return openDialogMsg{d: variableQuestion(kind, title, variable, projects)}
	}
	body := []string{"Each shows its plan first and asks once:"}
	picks := []pick{
		{k.BulkEnable, "enable error tracking (integrated where none is set up; a Sentry stays)", plan(change.SettingsChange{Enable: true})},
		{k.BulkDisable, "disable error tracking", plan(change.SettingsChange{Enable: false})},
		{k.BulkRotate, "rotate the key a CI/CD variable holds (" + variable + "?), and point it at the new DSN", ask(s.rotateChange, "Rotate the key which variable holds?")},
		{k.BulkVerify, "send a test event with the DSN a CI/CD variable holds (" + variable + "?)", ask(func(v string) change.Kind {
			return change.VerifyChange{Variable: v, Resolve: s.sh.deps.Sentry,
				ScopeHow: "open the project and send one with " + keyName(s.sh.keys.Verify) + " on its key"}
		}, "Send a test event with the DSN which variable holds?")},
	}
	if s.sh.deps.Migration != nil {
		picks = append(picks,
			pick{k.BulkMigrate, "migrate to a Sentry: a Sentry project and key each, the variables pointed at its DSN, a test event, integrated tracking off", s.migrateQuestion(projects, false)},
			pick{k.BulkDeleteOld, "delete the integrated (glet_) keys of projects migrated, once their clients moved", s.migrateQuestion(projects, true)})
	}
	if s.sh.hasBulk {
		picks = append(picks, pick{k.BulkReport, "show the last report again", openDialogMsg{d: s.sh.lastBulk}})
	}
	// The choices first, the marked projects after them: on a small
	// terminal the box scrolls, and what to press shows at once.
	d := menuDialog(wording.Projects(len(projects), "marked"), body, picks)
	d.body = append(d.body, "", "Marked:")
	for _, p := range projects {
		d.body = append(d.body, "  • "+clean(p.PathWithNamespace))
	}
	return msgCmd(openDialogMsg{d: d})
}

// variableQuestion asks which CI/CD variable's DSN a change of kind uses,
// variable when nothing is typed.
func variableQuestion(kind func(variable string) change.Kind, title, variable string, projects []apiclient.Project) dialog {
	d := inputDialog(title, []string{
		"The CI/CD variable whose DSN each project's applications use: enter takes " + variable + ", or type another name.",
	}, "Variable: ", "", "plan", func(name string, _ bool) (tea.Msg, string) {
		if name == "" {
			name = variable
		}
		if !projectscope.ValidVariableName(name) {
			return nil, "A variable's name is letters, digits and _ only."
		}
		return planBulkMsg{kind: kind(name), variable: name, projects: projects}, ""
	})
	d.ask.input.Placeholder = variable // taken when nothing is typed
	return d
}

// rotateChange is the marked projects' rotation of the keys variable
// holds, written in the ledger as the console's.
func (s *projectsScreen) rotateChange(variable string) change.Kind {
	l := s.sh.deps.Rotations.WithFrontEnd(rotation.FrontEndConsoleBulk).WithUser(s.sh.userName())
	return change.RotateChange{Variable: variable, Ledger: l, Resolve: s.sh.deps.Sentry,
		ScopeHow: "open the project and rotate its key with " + keyName(s.sh.keys.Rotate) + ", which updates each variable holding its DSN"}
}
