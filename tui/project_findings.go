package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// What the project screen shows about the project's health: its findings
// (F, errtrack audit) and the doctor's checks (D, errtrack doctor).

// consoleAction words a fix's action as the console does it: the key to
// press, and where. A login to a Sentry has no key (the console logs in to
// GitLab only): it is the command line's, and says so.
func consoleAction(k KeyMap) func(audit.Action) string {
	onKey := func(b key.Binding, a audit.Action) string {
		return fmt.Sprintf("%s on key %s, on the Client keys tab", keyName(b), clean(keystore.KeyName(a.Key)))
	}
	return func(a audit.Action) string {
		switch a.Do {
		case audit.ActCreateSettings:
			return keyName(k.CreateSettings) + " on the Settings tab creates them"
		case audit.ActEnable:
			return keyName(k.ToggleActive) + " on the Settings tab"
		case audit.ActCreateKey:
			return keyName(k.NewKey) + " on the Client keys tab"
		case audit.ActDeleteKey:
			if a.Key.ID == 0 && a.Key.PublicKey == "" {
				return keyName(k.Delete) + " on the key, on the Client keys tab"
			}
			return onKey(k.Delete, a)
		case audit.ActListKeys:
			return "the Client keys tab lists them; " + keyName(k.Copy) + " copies a key's DSN"
		case audit.ActRotateKey:
			return onKey(k.Rotate, a)
		case audit.ActEnableKey:
			return onKey(k.ToggleActive, a)
		case audit.ActLoginSentry:
			return "from the command line: " + clean(a.Command())
		case audit.ActDoctor:
			return keyName(k.Doctor) + " (the doctor)"
		case audit.ActRotateToken:
			return keyName(k.RotateToken)
		}
		return ""
	}
}

// showFindings opens the audit of project, read by its keys pane: each
// finding with its fix, errors first, as errtrack audit words them but for
// the keys that do the fix. All of them: the box scrolls.
func showFindings(sh *shared, project projectscope.Project, keys *keysPane) tea.Cmd {
	u := keys.uses
	name := clean(project.Name())
	switch {
	case !u.has && u.err != nil:
		return msgCmd(openDialogMsg{d: infoDialog("Findings for "+name, []string{
			"Where the keys' DSNs are used could not be read. " + sh.explain(u.err)})})
	case !u.has:
		return statusCmd(statusInfo, "Still reading where the keys' DSNs are used: press "+keyName(sh.keys.Findings)+" again in a moment.")
	}
	a := u.val
	rules := policyLines(sh.keys, keys.policy)
	if len(a.Findings) == 0 {
		return msgCmd(openDialogMsg{d: infoDialog("Findings for "+name, append([]string{"Nothing wrong: every CI/CD variable that holds a DSN holds a current key's."}, rules...))})
	}
	var body []string
	for i, f := range a.Findings {
		if i > 0 {
			body = append(body, "")
		}
		body = append(body, strings.ToUpper(f.Severity[:1])+f.Severity[1:]+": "+clean(f.What)+".",
			"Fix: "+clean(f.FixWith(consoleAction(sh.keys)))+".")
	}
	body = append(body, rules...)
	title := fmt.Sprintf("Findings for %s: %s, %d in all", name, errorsWord(a.Errors()), len(a.Findings))
	return msgCmd(openDialogMsg{d: infoDialog(title, body)})
}

// doctorOptions are errtrack doctor's options for the console: a test
// event is sent with v, and a create GitLab refused here (noIntegrated) is
// no fix.
func doctorOptions(sh *shared, noIntegrated bool) audit.DoctorOptions {
	return audit.DoctorOptions{TokenRotatable: sh.deps.TokenEnv == "" && sh.deps.RotateToken != nil, TokenEnv: sh.deps.TokenEnv,
		SendHint: keyName(sh.keys.Verify) + " on the key sends one", Resolve: sh.deps.Sentry,
		IntegratedUnavailable: noIntegrated,
		Ledger:                sh.deps.Rotations, OldKeysStep: consoleChecks(sh.keys).OldKeysStep,
		MigrateStep: keyName(sh.keys.BulkMigrate) + " in the " + keyName(sh.keys.Bulk) + " menu of the marked projects"}
}

// doctorDialog shows the checks as errtrack doctor prints them: each
// ok / warn / fail / skip with its detail, and the fix of what is not ok,
// with the console's keys; its last line offers a test event the way one
// is sent from the tab the user is on (onKeys: the Client keys tab).
func doctorDialog(sh *shared, project projectscope.Project, keys *keysPane, onKeys bool, checks []audit.Check) dialog {
	k := sh.keys
	fails, warns := 0, 0
	var body []string
	for _, c := range checks {
		switch c.Status {
		case audit.CheckFail:
			fails++
		case audit.CheckWarn:
			warns++
		}
		body = append(body, checkStyle(sh.styles, c.Status).Render(fmt.Sprintf("%-4s", c.Status))+fmt.Sprintf("  %s: %s", clean(c.Name), clean(c.Detail)))
		if fix := c.FixWith(consoleAction(k)); fix != "" && c.Status != audit.CheckOK {
			body = append(body, "  ↳ fix: "+clean(fix))
		}
	}
	verdict := "every check passes"
	switch {
	case fails > 0:
		verdict = fmt.Sprintf("%d failed, %d to look at", fails, warns)
	case warns > 0:
		verdict = fmt.Sprintf("no failure, %d to look at", warns)
	}
	send := "No test event was sent."
	switch sel, ok := keys.selected(); {
	case onKeys && ok:
		send = fmt.Sprintf("No test event was sent: %s sends one with key %s.", keyName(k.Verify), clean(keystore.KeyName(sel)))
	case keys.data.has && len(keys.keys()) > 0:
		send = fmt.Sprintf("No test event was sent: on the Client keys tab (%s), %s sends one with the selected key.", keyName(k.Tab), keyName(k.Verify))
	}
	body = append(body, "", send)
	return infoDialog("Doctor for "+clean(project.Name())+": "+verdict, body)
}

// checkStyle colours a check's state by its meaning, as the report's
// states are: ok as on, warn as needing a look, fail as bad (the word
// says it too, without colour).
func checkStyle(st Styles, status string) lipgloss.Style {
	switch status {
	case audit.CheckOK:
		return st.StateOn
	case audit.CheckWarn:
		return st.Warning
	case audit.CheckFail:
		return st.StateBad
	}
	return st.Subtle
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
