package audit

import (
	"fmt"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/keystore"
)

// A fix that is an action a front end offers its own way (the console has
// a key for it, the commands a command line) carries the action apart from
// its words: Fix is worded for the command line, FixWith for another front
// end. The words around the actions name no front end: a command line in
// them would reach the console as it is.

// Act is an action a fix asks for.
type Act int

// The actions a finding's or a check's fix can ask for.
const (
	ActNone           Act = iota
	ActCreateSettings     // create integrated error tracking settings
	ActEnable             // enable error tracking
	ActCreateKey          // create a client key
	ActDeleteKey          // delete the key Key
	ActListKeys           // list the keys (to take a current DSN)
	ActRotateKey          // rotate the key Key (a new key, the variables pointed at it)
	ActEnableKey          // turn the (Sentry) key Key on again
	ActLoginSentry        // log in to the Sentry at Sentry ("" when unknown)
	ActDoctor             // run the doctor on the project
	ActRotateToken        // rotate the GitLab access token
)

// Action is what a fix does, on what.
type Action struct {
	Do      Act
	Project string // the project's path, for a command line
	Key     apiclient.ClientKey
	Sentry  string // the Sentry's address, for ActLoginSentry
}

// Command words the action as errtrack's command line.
func (a Action) Command() string {
	p := ""
	if a.Project != "" {
		p = " -p " + a.Project
	}
	switch a.Do {
	case ActCreateSettings:
		return "errtrack settings create" + p + " --active=true --integrated=true"
	case ActEnable:
		return "errtrack settings enable" + p
	case ActCreateKey:
		return "errtrack keys create" + p
	case ActDeleteKey:
		return "errtrack keys delete" + p + " " + keystore.KeyRef(a.Key)
	case ActListKeys:
		return "errtrack keys list" + p
	case ActRotateKey:
		return "errtrack keys rotate" + p
	case ActEnableKey:
		return "errtrack keys update" + p + " " + keystore.KeyRef(a.Key) + " --active=true"
	case ActLoginSentry:
		if a.Sentry == "" {
			return "errtrack login --sentry URL"
		}
		return "errtrack login --sentry " + a.Sentry
	case ActDoctor:
		return "errtrack doctor" + p
	case ActRotateToken:
		return "errtrack auth rotate"
	}
	return ""
}

// remedy is a fix worded around its actions: how holds one %s per action,
// where the action's words go; without actions, how is the whole fix.
type remedy struct {
	how     string
	actions []Action
}

// remedyOf is the remedy how with its actions.
func remedyOf(how string, actions ...Action) remedy { return remedy{how, actions} }

func (r remedy) words(name func(Action) string) string {
	if len(r.actions) == 0 {
		return r.how
	}
	named := make([]any, len(r.actions))
	for i, a := range r.actions {
		named[i] = name(a)
	}
	return fmt.Sprintf(r.how, named...)
}

// first is the remedy's first action, the one Finding.Action and
// Check.Action name.
func (r remedy) first() Action {
	if len(r.actions) == 0 {
		return Action{}
	}
	return r.actions[0]
}

// FixWith is the finding's fix with its actions named by name (the
// console's keys); Fix when it was made without a remedy.
func (f Finding) FixWith(name func(Action) string) string {
	if f.fix.how == "" {
		return f.Fix
	}
	return f.fix.words(name)
}

// FixWith is the check's fix with its actions named by name.
func (c Check) FixWith(name func(Action) string) string {
	if c.fix.how == "" {
		return c.Fix
	}
	return c.fix.words(name)
}

// finding makes a finding whose fix is r, worded for the command line.
func finding(severity, what string, r remedy) Finding {
	return Finding{Severity: severity, What: what, Fix: r.words(Action.Command), Action: r.first(), fix: r}
}

// newCheck makes a check whose fix is r, worded for the command line.
func newCheck(name, status, detail string, r remedy) Check {
	return Check{Name: name, Status: status, Detail: detail, Fix: r.words(Action.Command), Action: r.first(), fix: r}
}
