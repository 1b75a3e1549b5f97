package workflow

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

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
	// Moved: it changed since the plan (read again right before the
	// write): it is left as it is.
	Moved bool
	// Outside: it has the rotated variable's name in another environment
	// scope; a scoped rotation never changes it, and the old key stays
	// while it holds its DSN.
	Outside bool
	// selected: the user chose to point it at the new DSN.
	selected bool
	// was is its value when planned (wasKnown: it had a readable one).
	was      string
	wasKnown bool
	// file is a file variable's content as read: its lines holding the old
	// DSN are what changes, not the whole value.
	file *string
}

// valueFor is what the variable is set to for the new DSN: the DSN, or a
// file variable's content with the old DSN's lines pointed at it.
func (v VariableTarget) valueFor(oldDSN, newDSN string) string {
	if v.file == nil {
		return newDSN
	}
	out, _ := dsn.ReplaceInFile(*v.file, oldDSN, newDSN)
	return out
}

// holdsDSN reports a variable whose value is d as a URL (any spelling of
// it), or a file variable with a line holding it.
func holdsDSN(v apiclient.Variable, d string) bool {
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
		t := VariableTarget{Key: v.Key, Scope: v.EnvironmentScope, Masked: v.Masked, Protected: v.Protected,
			raw: v.Raw, Exists: true}
		if v.Value != nil {
			t.was, t.wasKnown = *v.Value, true
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
		case holdsDSN(v, oldDSN):
			t := target(v)
			t.HoldsOld, t.Named, t.selected = true, isNamed, isNamed
			// The same name in another scope, when a scope was chosen.
			t.Outside = !isNamed && name != "" && scope != "" && v.Key == name
			if v.VariableType == "file" {
				t.file = v.Value
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
		p.targets = append(p.targets, VariableTarget{Key: name, Scope: scope, Masked: true, raw: true, Named: true, selected: true})
	}
	return p, nil
}

// updateVariables points every chosen variable that does not hold the new
// DSN yet at it, in order, and stops at the first failure (a
// *VariableError). Each is read again right before it is written: one
// changed since the plan is left as it is, and the rotation stops there
// (a *VariableMovedError), keeping the old key.
func (r Rotation) updateVariables(ctx context.Context, api VariableAPI) (Rotation, error) {
	r.Variables = slices.Clone(r.Variables)
	defer r.noteVariables()
	for i := range r.Variables {
		v := &r.Variables[i]
		if v.Done || !v.selected {
			continue
		}
		now, err := reread(ctx, api, r.Project.Ref, *v)
		switch {
		case err != nil:
			return r, &VariableError{Target: *v, Err: err}
		case now.holds(r.New.DSN):
			v.Done, v.Unknown, v.Failed = true, false, false
			continue
		case now.movedFrom(*v):
			v.Moved = true
			return r, &VariableMovedError{Target: *v}
		}
		if v.Exists {
			_, _, err = api.UpdateVariableValue(ctx, r.Project.Ref, v.Key, v.Scope, v.valueFor(r.Old.DSN, r.New.DSN))
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

// current is a variable as read again before its write.
type current struct {
	exists bool
	value  *string
}

// reread reads a variable again: missing is no error.
func reread(ctx context.Context, api VariableAPI, ref apiclient.ProjectRef, v VariableTarget) (current, error) {
	got, _, err := api.GetVariable(ctx, ref, v.Key, v.Scope)
	switch {
	case errors.Is(err, apiclient.ErrVariableNotFound):
		return current{}, nil
	case err != nil:
		return current{}, err
	}
	return current{exists: true, value: got.Value}, nil
}

func (c current) holds(d string) bool {
	return c.exists && c.value != nil && dsn.Same(*c.value, d)
}

// movedFrom reports a variable that is not as the plan read it: created,
// deleted, or holding another value (a hidden one cannot tell, and is
// written as the user asked).
func (c current) movedFrom(v VariableTarget) bool {
	switch {
	case c.exists != v.Exists:
		return true
	case !c.exists || c.value == nil || !v.wasKnown:
		return false
	}
	return *c.value != v.was
}

// VariableMovedError: a variable changed between the plan and its write;
// it is left as it is and the old key stays.
type VariableMovedError struct{ Target VariableTarget }

func (e *VariableMovedError) Error() string {
	return "the CI/CD variable " + e.Target.Label() + " changed since the plan (someone else changed it meanwhile), so it is left as it is"
}

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

// outsideScope names the variables of the rotated one's name, in other
// environment scopes, that hold the old DSN: the old key stays for them.
func (r Rotation) outsideScope() []string {
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
	if len(r.GroupUses) == 0 {
		return ""
	}
	holds, them := "holds", "it"
	if len(r.GroupUses) > 1 {
		holds, them = "hold", "them"
	}
	return "The " + r.GroupUsesText() + " " + holds + " the old DSN: errtrack does not change group variables, so point " + them + " at the new DSN in the group's settings, or deploys that read " + them + " stop reporting once the old key is gone."
}
