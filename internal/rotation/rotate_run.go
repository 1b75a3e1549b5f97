package rotation

import (
	"context"
	"fmt"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/wording"
)

// A rotation is driven one step at a time: Next says which step comes,
// Advance runs it, Run runs them all for a front end that asks nothing,
// and State says where the rotation stands.

// NewRotation starts a rotation in project ref; nothing is read until
// the plan step runs.
func NewRotation(ref apiclient.ProjectRef, o RotationOptions) Rotation {
	r := Rotation{Project: projectscope.Project{Ref: ref, ID: ref.ID, Path: ref.Path}, opts: o, confirmed: o.Confirmed}
	if o.KeepVariables {
		r.variables = decidedKeep
	}
	switch {
	case o.Restart:
		r.resume = decidedKeep
	case o.GoOn:
		r.resume = decidedUpdate
	}
	return r
}

// Next is the step that comes: StepDone once the old key is deleted, or
// the rotation stopped (a failure, or the user keeping the old key).
func (r Rotation) Next() Step {
	switch {
	case r.stopped:
		return StepDone
	case !r.planned:
		return StepPlan
	case r.Earlier != nil && r.resume == undecided:
		return StepResume
	case r.New == nil:
		return StepCreate
	case !r.Listed:
		return StepCheck
	case r.variables == undecided && r.VariablesInQuestion():
		return StepChooseVariables
	case r.VariablesPending():
		return StepUpdateVariables
	case r.opts.Verify && r.Verified == nil:
		return StepVerify
	case !r.confirmed:
		return StepConfirmDelete
	case r.opts.Soft && !r.Disabled && !r.Deleted:
		return StepDisable
	case !r.Deleted && !r.Disabled:
		return StepDelete
	}
	return StepDone
}

// Run makes one step and returns the rotation after it. A failed step ends
// the rotation: Next is then StepDone and State says what exists.
func (r Rotation) Run(ctx context.Context, api RotationAPI, step Step) (Rotation, error) {
	if step != r.Next() || step.Question() || step == StepDone {
		return r, fmt.Errorf("rotation step %d run out of order (next is %d)", step, r.Next())
	}
	var err error
	switch step {
	case StepPlan:
		r, err = r.plan(ctx, api)
		if err == nil && r.resume == decidedUpdate {
			r = r.goOn()
		}
	case StepCreate:
		r, err = r.create(ctx, api)
	case StepCheck:
		r, err = r.check(ctx, api)
	case StepUpdateVariables:
		r, err = r.updateVariables(ctx, api)
	case StepVerify:
		r, err = r.verify(ctx, api)
	case StepDelete:
		r, err = r.deleteOld(ctx, api)
	case StepDisable:
		r, err = r.disableOld(ctx, api)
	}
	if err != nil {
		r.stopped, r.failed, r.err = true, step, err
	}
	return r, err
}

// Advance runs steps until a question or the end. after, when not nil, is
// called after each step that succeeded.
func (r Rotation) Advance(ctx context.Context, api RotationAPI, after func(Step, Rotation)) (Rotation, error) {
	for s := r.Next(); !s.Question() && s != StepDone; s = r.Next() {
		var err error
		if r, err = r.Run(ctx, api, s); err != nil {
			return r, err
		}
		if after != nil {
			after(s, r)
		}
	}
	return r, nil
}

// State says what exists now, whatever step the rotation reached: the keys,
// then the CI/CD variables.
func (r Rotation) State(c Checks) string {
	keys := r.keysState(c)
	if v := r.VariablesState(c); v != "" {
		return keys + " " + v
	}
	return keys
}

func (r Rotation) keysState(c Checks) string {
	old := KeyLabel(r.Old)
	switch {
	case r.New == nil && r.CreateUnknown:
		return fmt.Sprintf("A new key may or may not have been created: %s before creating another. Old key %s is untouched.", c.Keys, old)
	case r.New == nil:
		return fmt.Sprintf("Old key %s is untouched.", old)
	case r.NewGone:
		restart := c.Restart
		if restart == "" {
			restart = "restart the rotation to make a new key"
		}
		return fmt.Sprintf("Old key %s is untouched. %s", old, wording.Capitalize(wording.Sentence(restart)))
	case r.DeleteUnknown:
		return fmt.Sprintf("New key %s is in place; old key %s may or may not have been deleted: %s, and delete it if it is still listed.", keystore.KeyName(*r.New), old, c.Keys)
	case r.OldGone:
		return fmt.Sprintf("Rotated: new key %s is in place; old key %s was already gone (deleted elsewhere).", keystore.KeyName(*r.New), keystore.KeyName(r.Old))
	case r.DeletedOnRetry:
		return fmt.Sprintf("Rotated: new key %s replaces key %s, which the server no longer has (the first delete went through before its answer was lost).", keystore.KeyName(*r.New), keystore.KeyName(r.Old))
	case r.Deleted:
		return fmt.Sprintf("Rotated: new key %s replaces key %s, which is deleted.", keystore.KeyName(*r.New), old)
	case r.Disabled:
		return fmt.Sprintf("Rotated softly: new key %s is in place; old key %s is disabled (the backend refuses its events) and stays until you delete it, once its clients use the new DSN: the rotation stays open until then.", keystore.KeyName(*r.New), old)
	}
	return fmt.Sprintf("Both keys exist: new key %s is in place, old key %s was kept.", keystore.KeyName(*r.New), old)
}
