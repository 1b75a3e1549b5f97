package workflow

import (
	"context"
	"errors"
	"fmt"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/safetext"
)

// Rotation replaces a client key: create a new key, check that the server
// lists it, then delete the old one. Each step returns the next state, so
// the console can run one step per command and ask the user in between;
// whatever step fails, State says what exists.
type Rotation struct {
	Project Project
	Old     apiclient.ClientKey
	New     *apiclient.ClientKey
	// Listed: the server's key list holds the new key.
	Listed bool
	// Deleted: the old key no longer exists. OldGone says it was deleted
	// elsewhere; DeletedOnRetry that a lost answer was retried.
	Deleted, OldGone, DeletedOnRetry bool
	// Variables are the CI/CD variables to point at the new DSN before the
	// old key goes.
	Variables []VariableTarget
	// Verified is the ingestion endpoint's answer to a test event sent with
	// the new DSN, when one was sent.
	Verified *apiclient.DSNCheck
}

// NoSuchKeyError: the key to replace is not in the project.
type NoSuchKeyError struct {
	Project Project
	ID      int64
}

func (e *NoSuchKeyError) Error() string {
	return fmt.Sprintf("project %s has no client key %d: nothing was changed", e.Project.Name(), e.ID)
}

// AmbiguousError: the project has several keys and none was named.
type AmbiguousError struct {
	Project Project
	Count   int
}

func (e *AmbiguousError) Error() string {
	if e.Count == 0 {
		return fmt.Sprintf("project %s has no client key to replace: create one instead", e.Project.Name())
	}
	return fmt.Sprintf("project %s has %d client keys: name the one to replace", e.Project.Name(), e.Count)
}

// NotListedError: the server created a key it does not list.
type NotListedError struct{ ID int64 }

func (e *NotListedError) Error() string {
	return fmt.Sprintf("the new key %d is not in the project's key list", e.ID)
}

// PlanRotation resolves the project and lists its keys (one round trip) and
// picks the key to replace: oldID, or the project's only key when oldID is 0.
func PlanRotation(ctx context.Context, api KeysAPI, ref apiclient.ProjectRef, oldID int64) (Rotation, error) {
	p, keys, err := ProjectKeys(ctx, api, ref)
	if err != nil {
		return Rotation{Project: p}, err
	}
	r := Rotation{Project: p}
	switch {
	case oldID != 0:
		k, ok := FindKey(keys, oldID)
		if !ok {
			return r, &NoSuchKeyError{p, oldID}
		}
		r.Old = k
	case len(keys) == 1:
		r.Old = keys[0]
	default:
		return r, &AmbiguousError{p, len(keys)}
	}
	return r, nil
}

// Create makes the new key. It is never retried: when its outcome is
// unknown (apiclient.OutcomeUnknown), the key may exist anyway.
func (r Rotation) Create(ctx context.Context, api KeysAPI) (Rotation, error) {
	k, _, err := api.CreateClientKey(ctx, r.Project.Ref)
	if err != nil {
		return r, err
	}
	r.New = k
	return r, nil
}

// Check makes sure the server lists the new key before the old one goes.
func (r Rotation) Check(ctx context.Context, api KeysAPI) (Rotation, error) {
	keys, _, err := api.ListClientKeys(ctx, r.Project.Ref)
	if err != nil {
		return r, err
	}
	if _, ok := FindKey(keys, r.New.ID); !ok {
		return r, &NotListedError{r.New.ID}
	}
	r.Listed = true
	return r, nil
}

// DeleteOld deletes the old key. A key already gone is deleted too.
func (r Rotation) DeleteOld(ctx context.Context, api KeysAPI) (Rotation, error) {
	_, resp, err := api.DeleteClientKey(ctx, r.Project.Ref, r.Old.ID)
	switch {
	case errors.Is(err, apiclient.ErrKeyNotFound):
		r.Deleted, r.OldGone = true, true
		return r, nil
	case err != nil:
		return r, err
	}
	r.Deleted = true
	r.DeletedOnRetry = resp != nil && resp.AlreadyGone
	return r, nil
}

// State says what exists now, whatever step the rotation reached: the keys,
// then the CI/CD variables.
func (r Rotation) State() string {
	keys := r.keysState()
	if v := r.VariablesState(); v != "" {
		return keys + " " + v
	}
	return keys
}

func (r Rotation) keysState() string {
	old := KeyLabel(r.Old)
	switch {
	case r.New == nil:
		return fmt.Sprintf("Old key %s is untouched.", old)
	case r.OldGone:
		return fmt.Sprintf("Rotated: new key %d is in place; old key %d was already gone (deleted elsewhere).", r.New.ID, r.Old.ID)
	case r.DeletedOnRetry:
		return fmt.Sprintf("Rotated: new key %d replaces key %d, which the server no longer has (the first delete went through before its answer was lost).", r.New.ID, r.Old.ID)
	case r.Deleted:
		return fmt.Sprintf("Rotated: new key %d replaces key %s, which is deleted.", r.New.ID, old)
	}
	return fmt.Sprintf("Both keys exist: new key %d is in place, old key %s was kept.", r.New.ID, old)
}

// CheckAPI sends a test event to a DSN.
type CheckAPI interface {
	SendTestEvent(ctx context.Context, dsn, message string) (*apiclient.DSNCheck, error)
}

// RefusedError: the ingestion endpoint refused the test event.
type RefusedError struct{ Check *apiclient.DSNCheck }

func (e *RefusedError) Error() string {
	msg := ""
	if e.Check.Message != "" {
		msg = ": " + e.Check.Message
	}
	return fmt.Sprintf("the error tracking backend refused the test event (HTTP %d%s)", e.Check.StatusCode, msg)
}

// Verify sends one test event with the new key's DSN; a refusal is a
// *RefusedError. It records an error event in the project.
func (r Rotation) Verify(ctx context.Context, api CheckAPI) (Rotation, error) {
	check, err := VerifyKey(ctx, api, r.Project, *r.New)
	r.Verified = check
	return r, err
}

// RefusedAdvice follows a refused test event.
const RefusedAdvice = "The key may be inactive or deleted, or error tracking is off for the instance."

// VerifyKey sends one test event with key's DSN (keys verify, the
// console's v); a refusal is a *RefusedError.
func VerifyKey(ctx context.Context, api CheckAPI, p Project, k apiclient.ClientKey) (*apiclient.DSNCheck, error) {
	check, err := api.SendTestEvent(ctx, k.DSN, fmt.Sprintf("errtrack: test event for client key %d of %s", k.ID, p.Name()))
	if err != nil {
		return nil, err
	}
	if !check.Accepted {
		return check, &RefusedError{check}
	}
	return check, nil
}

// VerifyWarning is what a user is told before a test event is sent.
const VerifyWarning = "This sends one test error event with the key's DSN, as an SDK would; it is recorded in the project's error tracking."

// FindKey finds key id in keys.
func FindKey(keys []apiclient.ClientKey, id int64) (apiclient.ClientKey, bool) {
	for _, k := range keys {
		if k.ID == id {
			return k, true
		}
	}
	return apiclient.ClientKey{}, false
}

// KeyLabel names a key for people: "12 (glet_abc…)".
func KeyLabel(k apiclient.ClientKey) string {
	return fmt.Sprintf("%d (%s)", k.ID, safetext.Excerpt(k.PublicKey, 40))
}

// CreateOutcomeUnknown words a create whose answer was lost: the key may
// exist, and the caller must look before trying again. check says how to
// look from where the user is.
func CreateOutcomeUnknown(err error, check string) (string, bool) {
	if !apiclient.OutcomeUnknown(err) {
		return "", false
	}
	return "The key may have been created anyway: " + check + " before creating another.", true
}
