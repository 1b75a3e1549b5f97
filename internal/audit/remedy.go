package audit

import (
	"fmt"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/keystore"
)

// A fix that is an action a front end offers its own way (the console has
// a key for it, the commands a command line) carries the action apart from
// its words: Fix is worded for the command line, FixWith for another front
// end.

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
)

// Action is what a fix does, on what.
type Action struct {
	Do      Act
	Project string // the project's path, for a command line
	Key     apiclient.ClientKey
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
	}
	return ""
}

// remedy is a fix worded around its action: how holds one %s, where the
// action's words go.
type remedy struct {
	how    string
	action Action
}

func (r remedy) words(name func(Action) string) string {
	if r.action.Do == ActNone {
		return r.how
	}
	return fmt.Sprintf(r.how, name(r.action))
}

// FixWith is the finding's fix with its action named by name (the
// console's key); Fix when it has no action.
func (f Finding) FixWith(name func(Action) string) string {
	if f.Action.Do == ActNone || f.how == "" {
		return f.Fix
	}
	return remedy{f.how, f.Action}.words(name)
}

// FixWith is the check's fix with its action named by name.
func (c Check) FixWith(name func(Action) string) string {
	if c.Action.Do == ActNone || c.how == "" {
		return c.Fix
	}
	return remedy{c.how, c.Action}.words(name)
}

// finding makes a finding whose fix is how with its action's command line.
func finding(severity, what, how string, a Action) Finding {
	return Finding{Severity: severity, What: what, Fix: remedy{how, a}.words(Action.Command), Action: a, how: how}
}
