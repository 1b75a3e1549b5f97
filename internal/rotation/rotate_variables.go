package rotation

import (
	"context"
	"slices"

	"github.com/errtrack/errtrack/apiclient"
)

// The rotation's step that points the CI/CD variables at the new DSN.

// updateVariables points every chosen variable that does not hold the new
// DSN yet at it, in order, and stops at the first failure (a
// *VariableError). Each is read again right before it is written: one
// changed since the plan is left as it is, and the rotation stops there
// (a *VariableMovedError), keeping the old key.
func (r Rotation) updateVariables(ctx context.Context, api VariableAPI) (out Rotation, err error) {
	r.Variables = slices.Clone(r.Variables)
	// Noted on every return, in the rotation returned: a deferred note on
	// r alone would be lost with the copy already made.
	defer func() { r.noteVariables(); out = r }()
	for i := range r.Variables {
		v := &r.Variables[i]
		if v.Done || !v.selected {
			continue
		}
		now, err := Reread(ctx, api, r.Project.Ref, *v)
		switch {
		case err != nil:
			return r, &VariableError{Target: *v, Err: err}
		case now.Holds(r.New.DSN):
			v.Done, v.Unknown, v.Failed = true, false, false
			continue
		case now.MovedFrom(*v):
			v.Moved = true
			return r, &VariableMovedError{Target: *v}
		}
		if v.Exists {
			_, _, err = api.UpdateVariableValue(ctx, r.Project.Ref, v.Key, v.Scope, v.ValueFor(r.Old.DSN, r.New.DSN))
		} else {
			_, _, err = api.CreateVariable(ctx, r.Project.Ref, apiclient.NewVariable{Key: v.Key, Value: r.New.DSN,
				Masked: v.Masked, Raw: v.Raw, Protected: v.Protected, EnvironmentScope: v.Scope,
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
