package check

import (
	"github.com/errtrack/errtrack/apiclient"
)

// A finding's fix is typed: what it does and on what. Each front end words
// it (the commands as a command line, the console as its keys); Finding.Fix
// holds the command line, for the CLI's text, JSON and JUnit.

// FixKind is what a finding's fix does.
type FixKind int

// The fixes a finding can ask for.
const (
	FixNone              FixKind = iota
	FixRotateKey                 // rotate Key, repointing Variable when one holds it
	FixSetRateLimit              // give Key the policy's RateLimit
	FixMigrate                   // carry the project's integrated error tracking to a Sentry
	FixDisableIntegrated         // disable integrated error tracking
	FixVariableFlags             // change Variable's flags in GitLab (errtrack changes none)
	FixEnableOrRepoint           // enable Key again, or point Variable at an active key
	FixRepointVariable           // point Variable at a current key's DSN, or remove it
	FixDeleteKey                 // delete Key (nothing holds it)
	FixDoctor                    // the doctor says why
)

// FixAction is a finding's fix: its kind and what it acts on.
type FixAction struct {
	Kind FixKind
	// Project is the project's path.
	Project string
	Key     apiclient.ClientKey
	// Variable is the CI/CD variable's name; Group the group that holds
	// it ("" the project).
	Variable, Group string
	// RateLimit is the policy's limit, COUNT/WINDOW.
	RateLimit string
}

// Command words the fix as errtrack's command line.
func (a FixAction) Command() string {
	p := shellArg(a.Project)
	switch a.Kind {
	case FixRotateKey:
		c := "errtrack keys rotate -p " + p + " --old " + keyArg(a.Key) + " --verify"
		if a.Variable != "" {
			c += " --ci-variable " + a.Variable + " --update-variables"
		}
		return c
	case FixSetRateLimit:
		return "errtrack keys update -p " + p + " " + a.Key.PublicKey + " --rate-limit " + a.RateLimit
	case FixMigrate:
		return "errtrack migrate --to SENTRY_URL --org ORG -p " + p
	case FixDisableIntegrated:
		return "errtrack settings disable -p " + p
	case FixVariableFlags:
		return "change it in " + a.VariableSettings() + " (errtrack changes no variable's flags)"
	case FixEnableOrRepoint:
		return "errtrack keys update -p " + p + " " + keyArg(a.Key) + " --active=true, or point the variable at an active key (errtrack keys list -p " + p + ")"
	case FixRepointVariable:
		return "point it at a current key's DSN (errtrack keys list -p " + p + "), or remove it"
	case FixDeleteKey:
		return "errtrack keys delete -p " + p + " " + keyArg(a.Key)
	case FixDoctor:
		return "errtrack doctor -p " + p + " says why"
	}
	return ""
}

// VariableSettings names the GitLab page where Variable's flags change.
func (a FixAction) VariableSettings() string {
	if a.Group != "" {
		return "group " + a.Group + "'s Settings > CI/CD > Variables"
	}
	return "the project's Settings > CI/CD > Variables"
}
