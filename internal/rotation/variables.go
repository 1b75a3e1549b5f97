package rotation

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/dsn"
	"github.com/errtrack/errtrack/internal/safetext"
)

// VariableAPI is what pointing CI/CD variables at a new DSN needs.
type VariableAPI interface {
	ListVariables(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.Variable, *apiclient.Response, error)
	GetVariable(ctx context.Context, p apiclient.ProjectRef, key, scope string) (*apiclient.Variable, *apiclient.Response, error)
	CreateVariable(ctx context.Context, p apiclient.ProjectRef, v apiclient.NewVariable) (*apiclient.Variable, *apiclient.Response, error)
	UpdateVariableValue(ctx context.Context, p apiclient.ProjectRef, key, scope, value string) (*apiclient.Variable, *apiclient.Response, error)
}

// VariableTarget is a CI/CD variable a rotation may point at the new DSN:
// one that holds the old DSN, or the one named with --ci-variable.
type VariableTarget struct {
	Key   string
	Scope string
	// The attributes it has, or is created with (masked and raw, not
	// protected: a DSN is a credential, and $ in it is no reference).
	Masked, Protected bool
	Raw               bool
	// Exists: the variable was there before; else the rotation creates it.
	Exists bool
	// HoldsOld: its value is the old key's DSN. Named: --ci-variable.
	HoldsOld, Named bool
	// Done: it holds the new DSN. Created: the rotation created it.
	Done, Created bool
	// Unknown: the write's answer was lost; it may or may not hold the new
	// DSN. Failed: the write was refused.
	Unknown, Failed bool
	// Moved: it changed since the plan (read again right before the
	// write): it is left as it is.
	Moved bool
	// Outside: it has the rotated variable's name in another environment
	// scope; a scoped rotation never changes it, and the old key stays
	// while it holds its DSN.
	Outside bool
	// selected: the user chose to point it at the new DSN.
	selected bool
	// Was is its value when planned (wasKnown: it had a readable one).
	Was      string
	WasKnown bool
	// File is a file variable's content as read: its lines holding the old
	// DSN are what changes, not the whole value.
	File *string
}

// ValueFor is what the variable is set to for the new DSN: the DSN, or a
// file variable's content with the old DSN's lines pointed at it.
func (v VariableTarget) ValueFor(oldDSN, newDSN string) string {
	if v.File == nil {
		return newDSN
	}
	out, _ := dsn.ReplaceInFile(*v.File, oldDSN, newDSN)
	return out
}

// HoldsDSN reports a variable whose value is d as a URL (any spelling of
// it), or a file variable with a line holding it.
func HoldsDSN(v apiclient.Variable, d string) bool {
	switch {
	case v.Value == nil || d == "":
		return false
	case v.VariableType == "file":
		for _, f := range dsn.InFile(*v.Value) {
			if dsn.Same(f.Value, d) {
				return true
			}
		}
		return false
	}
	return dsn.Same(*v.Value, d)
}

// Label names the variable and its scope for people.
func (v VariableTarget) Label() string {
	scope := "all environments"
	if v.Scope != "*" && v.Scope != "" {
		scope = "environment " + safetext.Excerpt(v.Scope, 60)
	}
	return fmt.Sprintf("%s (%s)", safetext.Excerpt(v.Key, 80), scope)
}

// Result says what happened to the variable: updated, created, unknown,
// failed, or unchanged.
func (v VariableTarget) Result() string {
	switch {
	case v.Done && v.Created:
		return "created"
	case v.Done:
		return "updated"
	case v.Unknown:
		return "unknown"
	case v.Failed:
		return "failed"
	case v.Moved:
		return "changed since the plan"
	}
	return "unchanged"
}

type plannedVariables struct {
	targets []VariableTarget
	hidden  []string
}

// planVariables finds, in one listing, the variables whose value is the old
// DSN and the one named (when name is given; a missing one is created).
// Hidden variables cannot be read: they are named, as they may hold it.
func planVariables(vars []apiclient.Variable, oldDSN, name, scope string) (plannedVariables, error) {
	var p plannedVariables
	target := func(v apiclient.Variable) VariableTarget {
		t := VariableTarget{Key: v.Key, Scope: v.EnvironmentScope, Masked: v.Masked, Protected: v.Protected,
			Raw: v.Raw, Exists: true}
		if v.Value != nil {
			t.Was, t.WasKnown = *v.Value, true
		}
		return t
	}
	var named []apiclient.Variable
	for _, v := range vars {
		isNamed := name != "" && v.Key == name && (scope == "" || v.EnvironmentScope == scope)
		if isNamed {
			named = append(named, v)
		}
		switch {
		case v.Value == nil && !isNamed:
			p.hidden = append(p.hidden, target(v).Label())
		case HoldsDSN(v, oldDSN):
			t := target(v)
			t.HoldsOld, t.Named, t.selected = true, isNamed, isNamed
			// The same name in another scope, when a scope was chosen.
			t.Outside = !isNamed && name != "" && scope != "" && v.Key == name
			if v.VariableType == "file" {
				t.File = v.Value
			}
			p.targets = append(p.targets, t)
		}
	}
	switch {
	case len(named) > 1:
		amb := &AmbiguousVariableError{Key: name}
		for _, v := range named {
			amb.Scopes = append(amb.Scopes, v.EnvironmentScope)
		}
		return p, amb
	case len(named) == 1:
		if !slices.ContainsFunc(p.targets, func(t VariableTarget) bool { return t.Named }) {
			t := target(named[0])
			t.Named, t.selected = true, true
			p.targets = append(p.targets, t)
		}
	case name != "":
		if scope == "" {
			scope = "*"
		}
		p.targets = append(p.targets, VariableTarget{Key: name, Scope: scope, Masked: true, Raw: true, Named: true, selected: true})
	}
	return p, nil
}

// Current is a variable as read again before its write.
type Current struct {
	Exists bool
	Value  *string
}

// Reread reads a variable again: missing is no error.
func Reread(ctx context.Context, api VariableAPI, ref apiclient.ProjectRef, v VariableTarget) (Current, error) {
	got, _, err := api.GetVariable(ctx, ref, v.Key, v.Scope)
	switch {
	case errors.Is(err, apiclient.ErrVariableNotFound):
		return Current{}, nil
	case err != nil:
		return Current{}, err
	}
	return Current{Exists: true, Value: got.Value}, nil
}

func (c Current) Holds(d string) bool {
	return c.Exists && c.Value != nil && dsn.Same(*c.Value, d)
}

// MovedFrom reports a variable that is not as the plan read it: created,
// deleted, or holding another value (a hidden one cannot tell, and is
// written as the user asked).
func (c Current) MovedFrom(v VariableTarget) bool {
	switch {
	case c.Exists != v.Exists:
		return true
	case !c.Exists || c.Value == nil || !v.WasKnown:
		return false
	}
	return *c.Value != v.Was
}
