package rotation

import (
	"errors"
	"fmt"
	"strings"

	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/testevent"
	"github.com/errtrack/errtrack/internal/wording"
)

// Failure words a failed rotation once, for both front ends: what failed,
// then what exists now and how to check what a lost answer left.
func (r Rotation) Failure(explain wording.Explainer, c Checks) string {
	step, err := r.Failed()
	if err == nil {
		return r.State(c)
	}
	var why string
	var notNew *NotNewError
	var notListed *NotListedError
	var foreign *ForeignDSNError
	var newGone *NewKeyGoneError
	var le *LedgerError
	var ve *VariableError
	var refused *testevent.RefusedError
	var unsafe *UnsafeDeleteError
	switch {
	case step == StepPlan && strings.Contains(strings.ToLower(explain(err)), "nothing was changed"):
		return wording.Sentence(explain(err))
	case step == StepPlan:
		return wording.Sentence(explain(err)) + " Nothing was changed."
	case errors.As(err, &notNew):
		why = wording.Sentence(notNew.Error()) + " No new key is known, so nothing more is done."
	case step == StepCreate && r.New != nil && errors.As(err, &le):
		// The key exists: only its record was lost (a full disk, a state
		// directory gone).
		why = fmt.Sprintf("New key %s was created, but the rotation ledger could not record it (%s), so nothing more is done. Make room in errtrack's state directory (or fix it), then rotate key %s again: it finds key %s and goes on with it.",
			keystore.KeyName(*r.New), le.Err, keystore.KeyName(r.Old), keystore.KeyName(*r.New))
	case step == StepCreate && r.CreateUnknown:
		why = wording.Sentence(explain(err))
	case step == StepCreate:
		return "Creating the new key failed, so nothing was changed: " + wording.Sentence(explain(err))
	case errors.As(err, &newGone):
		why = wording.Capitalize(newGone.Error()) + ", so nothing more is done."
	case errors.As(err, &notListed):
		why = fmt.Sprintf("The server does not list the new key %s, so the old key is not deleted.", keystore.KeyName(notListed.Key))
	case errors.As(err, &foreign):
		why = wording.Sentence(wording.Capitalize(foreign.Error())) + " No variable was pointed at it and the old key is not deleted: check the project's keys on the server, and delete the new key there if it is not this project's."
	case step == StepCheck:
		why = "The new key could not be checked in the key list, so the old key is not deleted: " + wording.Sentence(explain(err))
	case errors.As(err, &ve) && ve.Target.Unknown:
		why = fmt.Sprintf("%s may or may not have happened, so the old key is not deleted: %s", wording.Capitalize(ve.Step()), wording.Sentence(explain(ve.Err)))
	case errors.As(err, &ve):
		why = fmt.Sprintf("%s failed, so the old key is not deleted: %s Set it to the new DSN by hand.", wording.Capitalize(ve.Step()), wording.Sentence(explain(ve.Err)))
	case errors.As(err, &refused):
		why = wording.Sentence(wording.Capitalize(refused.Error())) + " The new DSN's test event was not accepted, so the old key is not deleted. " + refused.Advice()
	case step == StepVerify:
		why = "The test event could not be sent, so the old key is not deleted: " + wording.Sentence(explain(err))
	case errors.As(err, &unsafe):
		why = wording.Sentence(wording.Capitalize(unsafe.Error()))
	case step == StepDelete && r.DeleteUnknown:
		why = wording.Sentence(explain(err))
	case step == StepDelete:
		why = "Deleting the old key failed: " + wording.Sentence(explain(err))
	default:
		why = wording.Sentence(explain(err))
	}
	return why + " " + r.State(c)
}
