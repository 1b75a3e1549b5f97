package workflow

import (
	"context"
	"errors"
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

// VariableTarget is a CI/CD variable a rotation points at the new DSN.
type VariableTarget struct {
	Key   string `json:"key"`
	Scope string `json:"environment_scope"`
	// The attributes it has, or is created with (masked and raw, not
	// protected: a DSN is a credential, and $ in it is no reference).
	Masked    bool `json:"masked"`
	Protected bool `json:"protected"`
	raw       bool
	// Exists: the variable was there before; else the rotation creates it.
	Exists bool `json:"-"`
	// Done: it holds the new DSN. Created: the rotation created it.
	Done    bool `json:"updated"`
	Created bool `json:"created"`
	// Unknown: a create whose answer was lost; it may exist.
	Unknown bool `json:"-"`
}

// Label names the variable and its scope for people.
func (v VariableTarget) Label() string {
	scope := "all environments"
	if v.Scope != "*" && v.Scope != "" {
		scope = "environment " + safetext.Excerpt(v.Scope, 60)
	}
	return fmt.Sprintf("%s (%s)", safetext.Excerpt(v.Key, 80), scope)
}

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

// PlanVariable looks up the variable named key (in scope, when given) that
// the rotation will point at the new DSN; a missing one is created. It
// changes nothing, so an ambiguous name stops the rotation before it starts.
func (r Rotation) PlanVariable(ctx context.Context, api VariableAPI, key, scope string) (Rotation, error) {
	v, _, err := api.GetVariable(ctx, r.Project.Ref, key, scope)
	switch {
	case errors.Is(err, apiclient.ErrVariableAmbiguous):
		vars, _, lerr := api.ListVariables(ctx, r.Project.Ref)
		if lerr != nil {
			return r, err
		}
		amb := &AmbiguousVariableError{Key: key}
		for _, v := range vars {
			if v.Key == key && !slices.Contains(amb.Scopes, v.EnvironmentScope) {
				amb.Scopes = append(amb.Scopes, v.EnvironmentScope)
			}
		}
		return r, amb
	case errors.Is(err, apiclient.ErrVariableNotFound):
		if scope == "" {
			scope = "*"
		}
		r.Variables = append(r.Variables, VariableTarget{Key: key, Scope: scope, Masked: true, raw: true})
		return r, nil
	case err != nil:
		return r, err
	}
	r.Variables = append(r.Variables, VariableTarget{Key: v.Key, Scope: v.EnvironmentScope, Masked: v.Masked,
		Protected: v.Protected, raw: v.Raw, Exists: true})
	return r, nil
}

// RotationAPI is what a rotation that updates a CI/CD variable needs.
type RotationAPI interface {
	KeysAPI
	VariableAPI
}

// PlanRotationWithVariable is PlanRotation and PlanVariable at once: the
// variable lookup needs only the project reference, so both take one round
// trip. A plan error comes first; nothing is changed either way.
func PlanRotationWithVariable(ctx context.Context, api RotationAPI, ref apiclient.ProjectRef, oldID int64, key, scope string) (Rotation, error) {
	var r, v Rotation
	errR, errV := both(func() (err error) {
		r, err = PlanRotation(ctx, api, ref, oldID)
		return err
	}, func() (err error) {
		v, err = Rotation{Project: Project{Ref: ref}}.PlanVariable(ctx, api, key, scope)
		return err
	})
	if errR != nil {
		return r, errR
	}
	r.Variables = v.Variables
	return r, errV
}

// FindVariables finds the project's variables whose value is the old key's
// DSN: the ones a deploy reads it from. Hidden variables cannot be read and
// are not found.
func (r Rotation) FindVariables(ctx context.Context, api VariableAPI) (Rotation, error) {
	vars, _, err := api.ListVariables(ctx, r.Project.Ref)
	if err != nil {
		return r, err
	}
	for _, v := range vars {
		if v.Value != nil && r.Old.DSN != "" && strings.TrimSpace(*v.Value) == r.Old.DSN {
			r.Variables = append(r.Variables, VariableTarget{Key: v.Key, Scope: v.EnvironmentScope, Masked: v.Masked,
				Protected: v.Protected, raw: v.Raw, Exists: true})
		}
	}
	return r, nil
}

// UpdateVariables points every planned variable at the new DSN, in order,
// and stops at the first failure (a *VariableError).
func (r Rotation) UpdateVariables(ctx context.Context, api VariableAPI) (Rotation, error) {
	r.Variables = slices.Clone(r.Variables)
	for i := range r.Variables {
		v := &r.Variables[i]
		if v.Done {
			continue
		}
		var err error
		if v.Exists {
			_, _, err = api.UpdateVariableValue(ctx, r.Project.Ref, v.Key, v.Scope, r.New.DSN)
		} else {
			_, _, err = api.CreateVariable(ctx, r.Project.Ref, apiclient.NewVariable{Key: v.Key, Value: r.New.DSN,
				Masked: v.Masked, Raw: v.raw, Protected: v.Protected, EnvironmentScope: v.Scope,
				Description: "Error tracking DSN, set by errtrack"})
			v.Unknown = err != nil && apiclient.OutcomeUnknown(err)
		}
		if err != nil {
			return r, &VariableError{Target: *v, Err: err}
		}
		v.Done, v.Created, v.Unknown = true, !v.Exists, false
	}
	return r, nil
}

// VariablesPending reports variables that do not hold the new DSN yet.
func (r Rotation) VariablesPending() bool {
	return slices.ContainsFunc(r.Variables, func(v VariableTarget) bool { return !v.Done })
}

// VariableLabels names the planned variables: "SENTRY_DSN (all environments)".
func (r Rotation) VariableLabels() string {
	names := make([]string, len(r.Variables))
	for i, v := range r.Variables {
		names[i] = v.Label()
	}
	return strings.Join(names, ", ")
}

// VariablesState says where each CI/CD variable stands.
func (r Rotation) VariablesState() string {
	var parts []string
	for _, v := range r.Variables {
		switch {
		case v.Done && v.Created:
			parts = append(parts, fmt.Sprintf("CI/CD variable %s was created with the new DSN (masked, raw, not protected).", v.Label()))
		case v.Done:
			parts = append(parts, fmt.Sprintf("CI/CD variable %s holds the new DSN.", v.Label()))
		case v.Unknown:
			parts = append(parts, fmt.Sprintf("CI/CD variable %s may or may not have been created.", v.Label()))
		case v.Exists && r.New != nil:
			parts = append(parts, fmt.Sprintf("CI/CD variable %s still holds the old DSN.", v.Label()))
		case r.New != nil:
			parts = append(parts, fmt.Sprintf("CI/CD variable %s was not created.", v.Label()))
		}
	}
	return strings.Join(parts, " ")
}
