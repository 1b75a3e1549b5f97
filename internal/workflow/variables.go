package workflow

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/errtrack/errtrack/apiclient"
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
	raw               bool
	// Exists: the variable was there before; else the rotation creates it.
	Exists bool
	// HoldsOld: its value is the old key's DSN. Named: --ci-variable.
	HoldsOld, Named bool
	// Done: it holds the new DSN. Created: the rotation created it.
	Done, Created bool
	// Unknown: the write's answer was lost; it may or may not hold the new
	// DSN. Failed: the write was refused.
	Unknown, Failed bool
	// selected: the user chose to point it at the new DSN.
	selected bool
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
	}
	return "unchanged"
}

// VariablesUnreadError: the project's CI/CD variables could not be read.
type VariablesUnreadError struct{ Err error }

func (e *VariablesUnreadError) Error() string {
	return "the CI/CD variables could not be read: " + e.Err.Error()
}

func (e *VariablesUnreadError) Unwrap() error { return e.Err }

// AmbiguousVariableError: several variables have the key, in different
// environment scopes, and none was chosen.
type AmbiguousVariableError struct {
	Key    string
	Scopes []string
}

func (e *AmbiguousVariableError) Error() string {
	return fmt.Sprintf("the project has %d CI/CD variables named %s, in the environment scopes %s",
		len(e.Scopes), safetext.Excerpt(e.Key, 80), safetext.Excerpt(strings.Join(e.Scopes, ", "), 200))
}

// VariableError: pointing a variable at the new DSN failed.
type VariableError struct {
	Target VariableTarget
	Err    error
}

func (e *VariableError) Error() string {
	return fmt.Sprintf("%s failed: %v", e.Step(), e.Err)
}

// Step names what failed: "updating the CI/CD variable SENTRY_DSN (all
// environments)".
func (e *VariableError) Step() string {
	verb := "updating"
	if !e.Target.Exists {
		verb = "creating"
	}
	return verb + " the CI/CD variable " + e.Target.Label()
}

func (e *VariableError) Unwrap() error { return e.Err }

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
		return VariableTarget{Key: v.Key, Scope: v.EnvironmentScope, Masked: v.Masked, Protected: v.Protected,
			raw: v.Raw, Exists: true}
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
		case v.Value != nil && oldDSN != "" && strings.TrimSpace(*v.Value) == oldDSN:
			t := target(v)
			t.HoldsOld, t.Named, t.selected = true, isNamed, isNamed
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
		p.targets = append(p.targets, VariableTarget{Key: name, Scope: scope, Masked: true, raw: true, Named: true, selected: true})
	}
	return p, nil
}

// updateVariables points every variable that does not hold the new DSN yet
// at it, in order, and stops at the first failure (a *VariableError).
func (r Rotation) updateVariables(ctx context.Context, api VariableAPI) (Rotation, error) {
	r.Variables = slices.Clone(r.Variables)
	for i := range r.Variables {
		v := &r.Variables[i]
		if v.Done || !v.selected {
			continue
		}
		var err error
		if v.Exists {
			_, _, err = api.UpdateVariableValue(ctx, r.Project.Ref, v.Key, v.Scope, r.New.DSN)
		} else {
			_, _, err = api.CreateVariable(ctx, r.Project.Ref, apiclient.NewVariable{Key: v.Key, Value: r.New.DSN,
				Masked: v.Masked, Raw: v.raw, Protected: v.Protected, EnvironmentScope: v.Scope,
				Description: "Error tracking DSN, set by errtrack"})
		}
		if err != nil {
			v.Unknown = apiclient.OutcomeUnknown(err)
			v.Failed = !v.Unknown
			return r, &VariableError{Target: *v, Err: err}
		}
		v.Done, v.Created, v.Unknown, v.Failed = true, !v.Exists, false, false
	}
	return r, nil
}

// StillOld names the variables that hold the old DSN, or may (an update
// whose answer was lost).
func (r Rotation) StillOld() []string {
	var names []string
	for _, v := range r.Variables {
		if v.HoldsOld && !v.Done {
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
	if len(r.GroupUses) == 0 {
		return ""
	}
	holds, them := "holds", "it"
	if len(r.GroupUses) > 1 {
		holds, them = "hold", "them"
	}
	return "The " + r.GroupUsesText() + " " + holds + " the old DSN: errtrack does not change group variables, so point " + them + " at the new DSN in the group's settings, or deploys that read " + them + " stop reporting once the old key is gone."
}
