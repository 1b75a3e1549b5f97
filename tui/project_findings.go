package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/internal/workflow"
)

// What the project screen shows about the project's health: its findings
// (F, errtrack audit) and the doctor's checks (D, errtrack doctor).

// maxFindings is how many findings the dialog lists; errtrack audit has
// them all.
const maxFindings = 12

// findings opens the project's audit: each finding with its fix, errors
// first, as errtrack audit words them.
func (s *projectScreen) findings() tea.Cmd {
	u := s.keys.uses
	name := clean(s.project.Name())
	switch {
	case !u.has && u.err != nil:
		return msgCmd(openDialogMsg{d: infoDialog("Findings for "+name, []string{
			"Where the keys' DSNs are used could not be read. " + s.sh.explain(u.err)})})
	case !u.has:
		return statusCmd(statusInfo, "Still reading where the keys' DSNs are used: press "+keyName(s.sh.keys.Findings)+" again in a moment.")
	}
	a := u.val
	if len(a.Findings) == 0 {
		return msgCmd(openDialogMsg{d: infoDialog("Findings for "+name, []string{"Nothing wrong: every CI/CD variable that holds a DSN holds a current key's."})})
	}
	var body []string
	for i, f := range a.Findings {
		if i == maxFindings {
			body = append(body, fmt.Sprintf("… and %d more: errtrack audit -p %s lists them all.", len(a.Findings)-i, s.project.Ref))
			break
		}
		if i > 0 {
			body = append(body, "")
		}
		body = append(body, strings.ToUpper(f.Severity[:1])+f.Severity[1:]+": "+clean(f.What)+".", "Fix: "+clean(f.Fix)+".")
	}
	title := fmt.Sprintf("Findings for %s: %s, %d in all", name, errorsWord(a.Errors()), len(a.Findings))
	return msgCmd(openDialogMsg{d: infoDialog(title, body)})
}

// doctorDialog shows the checks as errtrack doctor prints them: each
// ok / warn / fail / skip with its detail, and the fix of what is not ok.
func doctorDialog(p workflow.Project, checks []workflow.Check, verifyKey string) dialog {
	fails, warns := 0, 0
	var body []string
	for _, c := range checks {
		switch c.Status {
		case workflow.CheckFail:
			fails++
		case workflow.CheckWarn:
			warns++
		}
		body = append(body, fmt.Sprintf("%-4s  %s: %s", c.Status, clean(c.Name), clean(c.Detail)))
		if c.Fix != "" && c.Status != workflow.CheckOK {
			body = append(body, "  ↳ fix: "+clean(c.Fix))
		}
	}
	verdict := "every check passes"
	switch {
	case fails > 0:
		verdict = fmt.Sprintf("%d failed, %d to look at", fails, warns)
	case warns > 0:
		verdict = fmt.Sprintf("no failure, %d to look at", warns)
	}
	body = append(body, "", "No test event was sent ("+verifyKey+" sends one with the selected key).")
	return infoDialog("Doctor for "+clean(p.Name())+": "+verdict, body)
}

func errorsWord(n int) string {
	switch n {
	case 0:
		return "no error"
	case 1:
		return "1 error"
	}
	return fmt.Sprintf("%d errors", n)
}
