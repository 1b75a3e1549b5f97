package workflow

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/ledger"
)

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
	// The ledger names who rotated: asked in the same round trip.
	if !r.opts.Ledger.hasUser() {
		wg.Add(1)
		go func() { defer wg.Done(); r.opts.Ledger = r.opts.Ledger.WithUser(currentUser(ctx, api)) }()
	}
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
	r = r.sawKeys(seen, resp)
	if verr != nil && r.opts.Variable != "" {
		// The named variable cannot be looked up: stop before any change.
		return r, &VariablesUnreadError{Err: verr}
	}
	return r.planFrom(ctx, api, vars, verr)
}

// sawKeys notes the keys the plan read: the new key's page (it is listed
// after every key there is now) and the highest key ID, by which a create
// whose answer was lost is found again.
func (r Rotation) sawKeys(seen []apiclient.ClientKey, resp *apiclient.Response) Rotation {
	r.known = r.known[:0]
	for _, k := range seen {
		r.known = append(r.known, k.ID)
	}
	r.keysBefore, r.keysCounted = len(seen), len(seen) < apiclient.KeysPerPage
	if resp != nil && resp.HasTotal {
		r.keysBefore, r.keysCounted = resp.Total, true
	}
	return r
}

// planFrom ends the plan from what was read: the variables holding the
// old DSN, and the unfinished rotation of the same key to go on with.
func (r Rotation) planFrom(ctx context.Context, api KeysAPI, vars []apiclient.Variable, verr error) (Rotation, error) {
	if verr != nil {
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
	r, err := r.findEarlier(ctx, api)
	if err != nil {
		return r, err
	}
	r.planned = true
	return r, nil
}

// create makes the new key. It is never retried: when its answer is lost
// the key may exist anyway.
// With a ledger, the project is claimed for the create (another run
// rotating it now is refused), the ledger is read again (another run that
// made a key for this rotation since the plan stops this one), and the
// create is recorded, on disk, before it is sent.
func (r Rotation) create(ctx context.Context, api KeysAPI) (Rotation, error) {
	release, err := r.claimCreate()
	if err != nil {
		return r, err
	}
	defer release()
	k, _, err := api.CreateClientKey(ctx, r.Project.Ref)
	switch {
	case err != nil:
		r.CreateUnknown = apiclient.OutcomeUnknown(err)
		if !r.CreateUnknown {
			r.endRecord(ledger.PhaseFailed, "the create was refused: no key was made")
		}
		return r, err
	case k.ID == r.Old.ID || (k.DSN != "" && k.DSN == r.Old.DSN) || (k.PublicKey != "" && k.PublicKey == r.Old.PublicKey):
		r.CreateUnknown = true
		return r, &NotNewError{Key: *k, Old: true}
	case slices.Contains(r.known, k.ID):
		// A key listed before the create is not the key just created.
		r.CreateUnknown = true
		return r, &NotNewError{Key: *k}
	}
	r.New = k
	if err := r.recordCreated(); err != nil {
		return r, err
	}
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
	// A group rotation's plan read them already, once per group.
	groupsRead := make(chan []Use, 1)
	if r.groupUsesKnown {
		groupsRead <- r.GroupUses
	} else {
		go func() {
			groupsRead <- matchGroupUses(groupVariables(ctx, api, r.Project.Path), strings.TrimSpace(r.Old.DSN))
		}()
	}
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
		r.New = &k // a key known only by its ID (the ledger's): as listed
	}
	r.Listed = true
	r.noteCheck()
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
	case len(r.outsideScope()) > 0:
		return &UnsafeDeleteError{Reason: strings.Join(r.outsideScope(), ", ") + " outside this rotation's scope still " +
			map[bool]string{true: "holds", false: "hold"}[len(r.outsideScope()) == 1] + " its DSN: rotate " +
			map[bool]string{true: "it", false: "them"}[len(r.outsideScope()) == 1] + " too, and the old key goes with the last", outside: true}
	case r.variables != decidedKeep && r.VariablesErr != nil:
		return &UnsafeDeleteError{Reason: "the CI/CD variables could not be read"}
	case r.variables != decidedKeep && len(r.StillOld()) > 0:
		return &UnsafeDeleteError{Reason: "CI/CD variables still hold its DSN"}
	case r.variables != decidedKeep && len(r.GroupUses) > 0 && !r.groupUsesSeen:
		return &UnsafeDeleteError{Reason: "group CI/CD variables hold its DSN (" + r.GroupUsesText() + ")", groups: true}
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
	r.Deleted, r.OldGone, r.DeletedOnRetry = deleted(resp, err)
	if !r.Deleted {
		r.DeleteUnknown = apiclient.OutcomeUnknown(err)
		return r, err
	}
	r.recordDeleted()
	return r, nil
}

// verify sends one test event with the new DSN; a refusal is a
// *RefusedError and keeps the old key.
func (r Rotation) verify(ctx context.Context, api CheckAPI) (Rotation, error) {
	check, err := VerifyKey(ctx, api, r.Project, *r.New)
	r.Verified = check
	r.noteVerified()
	return r, err
}
