package workflow

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/safetext"
)

// A rotation replaces a client key in one order of steps, whichever front
// end runs it: plan (read the project, its keys and its CI/CD variables at
// once), create the new key, check that the server lists it, ask what to do
// with the variables that hold the old DSN, update the chosen ones,
// optionally send a test event, ask before deleting, delete the old key.
// The console runs it with dialogs, the commands with prompts and flags;
// neither has an order of its own. Next says which step comes; questions
// are answered with UpdateVariables/KeepVariables and ConfirmDelete.

// Step is one step of a rotation.
type Step int

const (
	StepPlan Step = iota
	StepCreate
	StepCheck
	StepChooseVariables // a question: update the variables that hold the old DSN?
	StepUpdateVariables
	StepVerify
	StepConfirmDelete // a question: delete the old key?
	StepDelete
	StepDone
)

// Question reports a step the user (or a flag) answers rather than a
// request.
func (s Step) Question() bool { return s == StepChooseVariables || s == StepConfirmDelete }

// RotationOptions is what the user asked for before the rotation starts.
type RotationOptions struct {
	// OldID is the key to replace; 0 picks the project's only key.
	OldID int64
	// Variable names a CI/CD variable to point at the new DSN whether or not
	// it holds the old one (--ci-variable); a missing one is created.
	// Scope chooses among several of that name.
	Variable, Scope string
	// UpdateVariables and KeepVariables answer the variables question
	// beforehand (--update-variables, --keep-variables).
	UpdateVariables, KeepVariables bool
	// Verify sends a test event with the new DSN before the delete.
	Verify bool
	// Confirmed answers the delete question beforehand (--yes).
	Confirmed bool
	// Created is the new key an interrupted run of this rotation created
	// (from its journal): the rotation goes on with it, and creates none.
	Created *apiclient.ClientKey
}

type decision uint8

const (
	undecided decision = iota
	decidedUpdate
	decidedKeep
)

// Rotation is one rotation's state: a value, so each step returns the next
// one and a stale copy never acts.
type Rotation struct {
	Project Project
	Old     apiclient.ClientKey
	New     *apiclient.ClientKey
	// Listed: the server's key list holds the new key.
	Listed bool
	// Deleted: the old key no longer exists. OldGone says it was deleted
	// elsewhere; DeletedOnRetry that a lost answer was retried.
	Deleted, OldGone, DeletedOnRetry bool
	// CreateUnknown and DeleteUnknown: the answer was lost; the change may
	// or may not have been made.
	CreateUnknown, DeleteUnknown bool
	// Variables are the CI/CD variables that hold the old DSN or were named.
	Variables []VariableTarget
	// Hidden names variables whose value cannot be read: they may hold the
	// old DSN.
	Hidden []string
	// VariablesErr: the variables could not be read.
	VariablesErr error
	// GroupUses are the ancestor groups' variables holding the old DSN,
	// found with the new key's check. errtrack does not change them: the
	// old key is deleted only once the user has seen them (the delete
	// question names them) or chose to keep the variables.
	GroupUses []Use
	// Verified is the ingestion endpoint's answer to the test event.
	Verified *apiclient.DSNCheck

	opts       RotationOptions
	planned    bool
	known      []int64 // the keys the plan read
	keysBefore int     // how many keys the project had before the create
	// keysCounted: keysBefore is exact (the server counted, or the list
	// fits a page), so the new key's page is known.
	keysCounted bool
	variables   decision
	confirmed   bool
	// groupUsesSeen: the delete was confirmed by someone shown GroupUses.
	groupUsesSeen bool
	stopped       bool
	failed        Step
	err           error
}

// NewRotation starts a rotation in project ref; nothing is read until
// the plan step runs.
func NewRotation(ref apiclient.ProjectRef, o RotationOptions) Rotation {
	r := Rotation{Project: Project{Ref: ref, ID: ref.ID, Path: ref.Path}, opts: o, confirmed: o.Confirmed}
	if o.KeepVariables {
		r.variables = decidedKeep
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
	case r.New == nil:
		return StepCreate
	case !r.Listed:
		return StepCheck
	case r.variables == undecided && r.variablesInQuestion():
		return StepChooseVariables
	case r.VariablesPending():
		return StepUpdateVariables
	case r.opts.Verify && r.Verified == nil:
		return StepVerify
	case !r.confirmed:
		return StepConfirmDelete
	case !r.Deleted:
		return StepDelete
	}
	return StepDone
}

// variablesInQuestion: some variable holds the old DSN, or none could be
// read, so deleting the old key may break a deploy.
func (r Rotation) variablesInQuestion() bool {
	return r.VariablesErr != nil || slices.ContainsFunc(r.Variables, func(v VariableTarget) bool { return v.HoldsOld && !v.selected })
}

// UpdateVariables answers the variables question: point them at the new DSN.
func (r Rotation) UpdateVariables() Rotation {
	if r.VariablesErr != nil {
		return r
	}
	r.variables = decidedUpdate
	r.Variables = slices.Clone(r.Variables)
	for i := range r.Variables {
		if r.Variables[i].HoldsOld {
			r.Variables[i].selected = true
		}
	}
	return r
}

// KeepVariables answers the variables question: leave them as they are.
// The old key can then still be deleted, once the user confirms knowing it.
func (r Rotation) KeepVariables() Rotation {
	r.variables = decidedKeep
	return r
}

// ConfirmDelete answers the delete question; no keeps the old key and ends
// the rotation.
func (r Rotation) ConfirmDelete(yes bool) Rotation {
	if yes {
		r.confirmed, r.groupUsesSeen = true, true
	} else {
		r.stopped = true
	}
	return r
}

// WantVerify asks for a test event before the delete (the console's v at
// the delete question).
func (r Rotation) WantVerify() Rotation {
	r.opts.Verify = true
	return r
}

// Stop ends the rotation where it stands (a question that cannot be
// asked); the old key stays.
func (r Rotation) Stop() Rotation {
	r.stopped = true
	return r
}

// OldKeyID is the key being replaced: the one asked for until the plan
// has read it.
func (r Rotation) OldKeyID() int64 {
	if r.Old.ID != 0 {
		return r.Old.ID
	}
	return r.opts.OldID
}

// Kept reports a rotation that ended with both keys.
func (r Rotation) Kept() bool { return r.New != nil && r.stopped && !r.Deleted }

// Failed reports the step that failed and its error, if one did.
func (r Rotation) Failed() (Step, error) { return r.failed, r.err }

// VariablesDecided reports that the user chose what to do with the variables.
func (r Rotation) VariablesDecided() bool { return r.variables != undecided }

// VariablesKept reports that the user chose to leave the variables as they are.
func (r Rotation) VariablesKept() bool { return r.variables == decidedKeep }

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

// NotNewError: the server's answer to the create names a key that existed
// before (a replaying proxy, a buggy server): no new key is known.
type NotNewError struct {
	Key apiclient.ClientKey
	Old bool // it is the key being replaced
}

func (e *NotNewError) Error() string {
	if e.Old {
		return fmt.Sprintf("the server's answer to the create names key %d, the key being replaced", e.Key.ID)
	}
	return fmt.Sprintf("the server's answer to the create names key %d, which existed before", e.Key.ID)
}

// UnsafeDeleteError: a guard of the delete failed; the old key is kept.
type UnsafeDeleteError struct {
	Reason string
	// groups: the guard on the groups' variables, which a group
	// rotation words with its own way out.
	groups bool
}

func (e *UnsafeDeleteError) Error() string { return "the old key is not deleted: " + e.Reason }

// plan reads the project, the key to replace and the CI/CD variables at
// once: one round trip when the key is on the list's first page (the key
// list is read only up to the key), and picks the key to replace.
func (r Rotation) plan(ctx context.Context, api RotationAPI) (Rotation, error) {
	var p Project
	var old *apiclient.ClientKey
	var seen []apiclient.ClientKey
	var resp *apiclient.Response
	var vars []apiclient.Variable
	var perr, kerr, verr error
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); p, perr = ResolveProject(ctx, api, r.Project.Ref) }()
	go func() {
		defer wg.Done()
		if r.opts.OldID != 0 {
			old, seen, resp, kerr = api.FindClientKey(ctx, r.Project.Ref, r.opts.OldID)
			return
		}
		seen, resp, kerr = api.FirstClientKeys(ctx, r.Project.Ref)
	}()
	go func() { defer wg.Done(); vars, _, verr = api.ListVariables(ctx, r.Project.Ref) }()
	wg.Wait()
	r.Project = p
	switch {
	case errors.Is(perr, apiclient.ErrProjectNotFound) || errors.Is(perr, apiclient.ErrUnauthorized):
		return r, perr
	case r.opts.OldID != 0 && errors.Is(kerr, apiclient.ErrKeyNotFound):
		return r, &NoSuchKeyError{p, r.opts.OldID}
	case kerr != nil:
		return r, kerr
	}
	switch {
	case old != nil:
		r.Old = *old
	case len(seen) == 1 && (resp == nil || !resp.HasTotal || resp.Total <= 1):
		r.Old = seen[0]
	default:
		n := len(seen)
		if resp != nil && resp.HasTotal {
			n = resp.Total
		}
		return r, &AmbiguousError{p, n}
	}
	for _, k := range seen {
		r.known = append(r.known, k.ID)
	}
	// The new key's page: it is listed after every key there is now.
	r.keysBefore, r.keysCounted = len(seen), len(seen) < apiclient.KeysPerPage
	if resp != nil && resp.HasTotal {
		r.keysBefore, r.keysCounted = resp.Total, true
	}
	if verr != nil {
		if r.opts.Variable != "" {
			// The named variable cannot be looked up: stop before any change.
			return r, &VariablesUnreadError{Err: verr}
		}
		r.VariablesErr = verr
	} else {
		t, err := planVariables(vars, r.Old.DSN, r.opts.Variable, r.opts.Scope)
		if err != nil {
			return r, err
		}
		r.Variables, r.Hidden = t.targets, t.hidden
		if r.opts.UpdateVariables {
			r = r.UpdateVariables()
		}
	}
	if r.opts.Created != nil {
		k := *r.opts.Created
		r.New = &k
	}
	r.planned = true
	return r, nil
}

// create makes the new key. It is never retried: when its answer is lost
// the key may exist anyway.
func (r Rotation) create(ctx context.Context, api KeysAPI) (Rotation, error) {
	k, _, err := api.CreateClientKey(ctx, r.Project.Ref)
	if err != nil {
		r.CreateUnknown = apiclient.OutcomeUnknown(err)
		return r, err
	}
	if k.ID == r.Old.ID || (k.DSN != "" && k.DSN == r.Old.DSN) || (k.PublicKey != "" && k.PublicKey == r.Old.PublicKey) {
		r.CreateUnknown = true
		return r, &NotNewError{Key: *k, Old: true}
	}
	// A key listed before the create is not the key just created.
	if slices.Contains(r.known, k.ID) {
		r.CreateUnknown = true
		return r, &NotNewError{Key: *k}
	}
	r.New = k
	return r, nil
}

// check makes sure the server lists the new key before anything else
// changes: the delete's first guard.
func (r Rotation) check(ctx context.Context, api KeysAPI) (Rotation, error) {
	// The new key is last: its page, and any after it, is one request on
	// a big list; a list that moved meanwhile (keys deleted) is read whole.
	var keys []apiclient.ClientKey
	var err error
	// The groups' variables holding the old DSN are read meanwhile: no
	// round trip added.
	groupsRead := make(chan []Use, 1)
	go func() {
		groupsRead <- matchGroupUses(groupVariables(ctx, api, r.Project.Path), strings.TrimSpace(r.Old.DSN))
	}()
	if r.keysCounted {
		keys, _, err = api.ListClientKeysFrom(ctx, r.Project.Ref, apiclient.KeysPage(r.keysBefore))
	} else {
		keys, err = api.LastClientKeys(ctx, r.Project.Ref)
	}
	r.GroupUses = <-groupsRead
	if err != nil {
		return r, err
	}
	if _, ok := FindKey(keys, r.New.ID); !ok && r.keysBefore > 0 {
		if keys, _, err = api.ListClientKeys(ctx, r.Project.Ref); err != nil {
			return r, err
		}
	}
	k, ok := FindKey(keys, r.New.ID)
	if !ok || k.ID == r.Old.ID {
		return r, &NotListedError{r.New.ID}
	}
	if r.New.DSN == "" {
		r.New = &k // a key known only by its ID (a journal's): as listed
	}
	r.Listed = true
	return r, nil
}

// deleteSafe holds every guard of the delete: the new key is listed and is
// not the old one, the user confirmed, a test event was not refused, and no
// variable is left on the old DSN unless the user chose to keep them.
func (r Rotation) deleteSafe() error {
	switch {
	case r.New == nil || !r.Listed:
		return &UnsafeDeleteError{Reason: "the server does not list a new key"}
	case r.New.ID == r.Old.ID:
		return &UnsafeDeleteError{Reason: "the new key is the old one"}
	case !r.confirmed:
		return &UnsafeDeleteError{Reason: "the delete was not confirmed"}
	case r.Verified != nil && !r.Verified.Accepted:
		return &UnsafeDeleteError{Reason: "the test event with the new DSN was refused"}
	case r.variables != decidedKeep && r.VariablesErr != nil:
		return &UnsafeDeleteError{Reason: "the CI/CD variables could not be read"}
	case r.variables != decidedKeep && len(r.StillOld()) > 0:
		return &UnsafeDeleteError{Reason: "CI/CD variables still hold its DSN"}
	case r.variables != decidedKeep && len(r.GroupUses) > 0 && !r.groupUsesSeen:
		return &UnsafeDeleteError{Reason: "its DSN is held by the " + r.GroupUsesText(), groups: true}
	}
	return nil
}

// deleteOld deletes the old key, once every guard holds. A key already
// gone is deleted too.
func (r Rotation) deleteOld(ctx context.Context, api KeysAPI) (Rotation, error) {
	if err := r.deleteSafe(); err != nil {
		return r, err
	}
	_, resp, err := api.DeleteClientKey(ctx, r.Project.Ref, r.Old.ID)
	switch {
	case errors.Is(err, apiclient.ErrKeyNotFound):
		r.Deleted, r.OldGone = true, true
		return r, nil
	case err != nil:
		r.DeleteUnknown = apiclient.OutcomeUnknown(err)
		return r, err
	}
	r.Deleted = true
	r.DeletedOnRetry = resp != nil && resp.AlreadyGone
	return r, nil
}

// verify sends one test event with the new DSN; a refusal is a
// *RefusedError and keeps the old key.
func (r Rotation) verify(ctx context.Context, api CheckAPI) (Rotation, error) {
	check, err := VerifyKey(ctx, api, r.Project, *r.New)
	r.Verified = check
	return r, err
}

// Checks say how the user checks what a lost answer left, from where they
// are: a command, or the console's refresh.
type Checks struct {
	Keys      string // e.g. "check with 'errtrack keys list -p 1'"
	Variables string // e.g. "check in the project's Settings > CI/CD > Variables"
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
	case r.DeleteUnknown:
		return fmt.Sprintf("New key %d is in place; old key %s may or may not have been deleted: %s, and delete it if it is still listed.", r.New.ID, old, c.Keys)
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

// RotationAPI is what a rotation needs.
type RotationAPI interface {
	KeysAPI
	VariableAPI
	CheckAPI
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
	return "The key may or may not have been created: " + check + " before creating another.", true
}
