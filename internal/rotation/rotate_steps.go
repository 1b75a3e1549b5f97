package rotation

import (
	"time"

	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/dsn"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/safetext"
	"github.com/errtrack/errtrack/internal/testevent"
)

// plan reads the project, the key to replace and the CI/CD variables at
// once: one round trip when the key is on the list's first page (the key
// list is read only up to the key), and picks the key to replace.
func (r Rotation) plan(ctx context.Context, api RotationAPI) (Rotation, error) {
	var p projectscope.Project
	var read keystore.KeysRead
	var vars []apiclient.Variable
	var perr, kerr, verr error
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); p, perr = projectscope.ResolveProject(ctx, api, r.Project.Ref) }()
	var settings *apiclient.Settings
	var serr error
	keys, oldRef := r.keys(api), r.oldRef() // not r in the goroutines: r.opts.Ledger is set meanwhile
	go func() { defer wg.Done(); read, kerr = keys.Read(ctx, oldRef) }()
	if r.opts.Keys == nil && r.opts.Resolve != nil {
		// GitLab's keys are read meanwhile: an integrated project's plan
		// stays one round trip.
		wg.Add(1)
		go func() { defer wg.Done(); settings, _, serr = api.GetSettings(ctx, r.Project.Ref) }()
	}
	go func() { defer wg.Done(); vars, _, verr = api.ListVariables(ctx, r.Project.Ref) }()
	// The ledger names who rotated: asked in the same round trip.
	led := r.opts.Ledger
	if !led.HasUser() {
		wg.Add(1)
		go func() { defer wg.Done(); led = led.WithUser(CurrentUser(ctx, api)) }()
	}
	wg.Wait()
	r.opts.Ledger = led
	r.Project = p
	if serr != nil && !errors.Is(serr, apiclient.ErrSettingsNotFound) && perr == nil {
		return r, serr
	}
	if keystore.SentryBacked(settings) {
		store, err := r.opts.Resolve(ctx, *settings.APIURL)
		if err != nil {
			return r, err
		}
		r.opts.Keys = store
		read, kerr = store.Read(ctx, r.oldRef())
	}
	switch {
	case errors.Is(perr, apiclient.ErrProjectNotFound) || errors.Is(perr, apiclient.ErrUnauthorized):
		return r, perr
	case r.opts.Soft && !canDisable(r.keys(api)):
		return r, &SoftUnsupportedError{Project: p}
	case r.opts.NewName != "" && r.keys(api).Backend() == keystore.BackendGitLab:
		return r, &UnnamedKeysError{Project: p}
	case r.oldRef() != "" && errors.Is(kerr, apiclient.ErrKeyNotFound):
		// The key is surely gone: the rotations it leaves open are closed,
		// as a delete through errtrack closes them.
		gone := apiclient.ClientKey{ID: r.opts.OldID, PublicKey: r.opts.OldRef}
		return r, &NoSuchKeyError{Project: p, ID: r.opts.OldID, Ref: r.oldRef(), Closed: led.keyGoneOutside(p.ID, gone)}
	case kerr != nil:
		return r, kerr
	}
	switch {
	case read.Old != nil:
		r.Old = *read.Old
	case len(read.Seen) == 1 && read.Count <= 1:
		r.Old = read.Seen[0]
	default:
		return r, &AmbiguousError{p, read.Count}
	}
	r = r.sawKeys(read)
	if verr != nil && r.opts.Variable != "" {
		// The named variable cannot be looked up: stop before any change.
		return r, &VariablesUnreadError{Err: verr}
	}
	return r.planFrom(ctx, api, vars, verr)
}

// sawKeys notes the keys the plan read: the new key's page (it is listed
// after every key there is now), and the keys by which a create whose
// answer was lost is found again.
func (r Rotation) sawKeys(read keystore.KeysRead) Rotation {
	r.read, r.known = read, nil
	for _, k := range read.Seen {
		r.known = append(r.known, keystore.KeyRef(k))
	}
	return r
}

// planFrom ends the plan from what was read: the variables holding the
// old DSN, and the unfinished rotation of the same key to go on with.
func (r Rotation) planFrom(ctx context.Context, api keystore.KeysAPI, vars []apiclient.Variable, verr error) (Rotation, error) {
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

// newName is the new key's name: the one given, or, where the store names
// keys, NewKeyName's (the console's and the commands' one rule).
func (r Rotation) newName() string {
	if r.opts.NewName != "" || r.opts.Keys == nil || r.opts.Keys.Backend() == keystore.BackendGitLab {
		return r.opts.NewName
	}
	now := time.Now
	if r.opts.Ledger != nil && r.opts.Ledger.now != nil {
		now = r.opts.Ledger.now
	}
	return keystore.NewKeyName(r.Old.Name, now())
}

// create makes the new key, with the old key's rate limit where keys have
// one. It is never retried: when its answer is lost the key may exist
// anyway. With a ledger, the project is claimed for the create (another
// run rotating it now is refused), the ledger is read again (another run
// that made a key for this rotation since the plan stops this one), and
// the create is recorded, on disk, before it is sent.
func (r Rotation) create(ctx context.Context, api keystore.KeysAPI) (Rotation, error) {
	release, err := r.claimCreate()
	if err != nil {
		return r, err
	}
	defer release()
	var k *apiclient.ClientKey
	store := r.keys(api)
	if lc, ok := store.(keystore.LimitedCreator); ok && r.Old.RateLimit != nil {
		k, err = lc.CreateLimited(ctx, r.newName(), r.Old.RateLimit)
	} else {
		k, err = store.Create(ctx, r.newName())
	}
	switch {
	case err != nil:
		r.CreateUnknown = apiclient.OutcomeUnknown(err)
		if !r.CreateUnknown {
			r.endRecord(ledger.PhaseFailed, "the create was refused: no key was made")
		}
		return r, err
	case keystore.SameKey(*k, r.Old) || (k.DSN != "" && k.DSN == r.Old.DSN) || (k.PublicKey != "" && k.PublicKey == r.Old.PublicKey):
		r.CreateUnknown = true
		return r, &NotNewError{Key: *k, Old: true}
	case slices.Contains(r.known, keystore.KeyRef(*k)):
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
func (r Rotation) check(ctx context.Context, api RotationAPI) (Rotation, error) {
	// The new key is last: its page, and any after it, is one request on
	// a big list; a list that moved meanwhile (keys deleted) is read whole.
	var keys []apiclient.ClientKey
	var err error
	// The groups' variables holding the old DSN are read meanwhile: no
	// round trip added.
	// A group rotation's plan read them already, once per group.
	type groupsSeen struct {
		uses   []Use
		unread map[string]error
	}
	groupsRead := make(chan groupsSeen, 1)
	if r.groupUsesKnown {
		groupsRead <- groupsSeen{r.GroupUses, r.GroupsUnread}
	} else {
		path, oldDSN := r.Project.Path, strings.TrimSpace(r.Old.DSN)
		go func() {
			gv := projectscope.AncestorVariables(ctx, api, path)
			groupsRead <- groupsSeen{matchGroupUses(gv.Read, oldDSN), gv.Unread}
		}()
	}
	store := r.keys(api)
	keys, err = store.Listed(ctx, r.read)
	seen := <-groupsRead
	r.GroupUses, r.GroupsUnread = seen.uses, seen.unread
	if err != nil {
		return r, err
	}
	if _, ok := FindKeyRef(keys, keystore.KeyRef(*r.New)); !ok && r.read.Count > 0 && store.Backend() == keystore.BackendGitLab {
		if keys, err = store.All(ctx); err != nil {
			return r, err
		}
	}
	k, ok := FindKeyRef(keys, keystore.KeyRef(*r.New))
	switch {
	case !ok && r.GoingOn():
		// The key the unfinished rotation made was deleted since.
		r.NewGone = true
		return r, &NewKeyGoneError{Key: *r.New, Record: *r.Earlier}
	case !ok || keystore.SameKey(k, r.Old):
		return r, &NotListedError{Key: *r.New}
	}
	if err := r.checkNewDSN(k); err != nil {
		return r, err
	}
	// The variables get the DSN the server lists for the key, not the
	// create's answer's (a proxy or a buggy server may answer another).
	r.New = &k
	r.Listed = true
	r.noteCheck()
	return r, nil
}

// checkNewDSN makes sure the listed key's DSN is this project's, on the
// host its keys are on: the old key's DSN's project and host (for
// GitLab's keys, also the GitLab project's ID), and that the create's
// answer named the same. Anything else stops the rotation before a
// variable moves or the old key goes.
func (r Rotation) checkNewDSN(listed apiclient.ClientKey) error {
	foreign := func(format string, a ...any) error {
		return &ForeignDSNError{Key: listed, Why: fmt.Sprintf(format, a...)}
	}
	d, err := dsn.Parse(listed.DSN)
	if err != nil {
		return foreign("the key list gives it no usable DSN (%v)", err)
	}
	where := func(d dsn.DSN) string { return d.Scheme + "://" + dsn.CanonicalHost(d) }
	if old, err := dsn.Parse(r.Old.DSN); err == nil {
		switch {
		case d.ProjectID != old.ProjectID:
			return foreign("its DSN names project %d, the old key's project %d", d.ProjectID, old.ProjectID)
		case where(d) != where(old):
			return foreign("its DSN names the host %s, the old key's %s", safetext.Excerpt(where(d), 80), safetext.Excerpt(where(old), 80))
		}
	}
	gitlab := r.opts.Keys == nil || r.opts.Keys.Backend() == keystore.BackendGitLab
	if gitlab && r.Project.ID != 0 && d.ProjectID != r.Project.ID {
		return foreign("its DSN names project %d, not this project (%d)", d.ProjectID, r.Project.ID)
	}
	if r.New != nil && r.New.DSN != "" {
		a, err := dsn.Parse(r.New.DSN)
		switch {
		case err != nil:
			return foreign("the create's answer gave it no usable DSN (%v)", err)
		case a.ProjectID != d.ProjectID || where(a) != where(d):
			return foreign("the create's answer named %s project %d, the key list %s project %d",
				safetext.Excerpt(where(a), 80), a.ProjectID, safetext.Excerpt(where(d), 80), d.ProjectID)
		}
	}
	return nil
}

// deleteSafe holds every guard of the delete: the new key is listed and is
// not the old one, the user confirmed, a test event was not refused, and no
// variable is left on the old DSN unless the user chose to keep them.
func (r Rotation) deleteSafe() error {
	switch {
	case r.New == nil || !r.Listed:
		return &UnsafeDeleteError{Reason: "the server does not list a new key"}
	case keystore.SameKey(*r.New, r.Old):
		return &UnsafeDeleteError{Reason: "the new key is the old one"}
	case !r.confirmed:
		return &UnsafeDeleteError{Reason: "the delete was not confirmed"}
	case r.Verified != nil && !r.Verified.Accepted:
		return &UnsafeDeleteError{Reason: "the test event with the new DSN was refused"}
	case len(r.OutsideScope()) > 0:
		return &UnsafeDeleteError{Reason: strings.Join(r.OutsideScope(), ", ") + " outside this rotation's scope still " +
			map[bool]string{true: "holds", false: "hold"}[len(r.OutsideScope()) == 1] + " its DSN: rotate " +
			map[bool]string{true: "it", false: "them"}[len(r.OutsideScope()) == 1] + " too, and the old key goes with the last", outside: true}
	case r.variables != decidedKeep && r.VariablesErr != nil:
		return &UnsafeDeleteError{Reason: "the CI/CD variables could not be read"}
	case r.variables != decidedKeep && len(r.StillOld()) > 0:
		return &UnsafeDeleteError{Reason: "CI/CD variables still hold its DSN"}
	case r.variables != decidedKeep && len(r.GroupUses) > 0 && !r.groupUsesSeen:
		return &UnsafeDeleteError{Reason: "its DSN is held by the " + r.GroupUsesText(), Groups: true}
	case len(r.GroupsUnread) > 0 && !r.groupUsesSeen && !r.opts.DeleteWithUnreadGroups:
		return r.UnreadGroupsError()
	}
	return nil
}

// deleteOld deletes the old key, once every guard holds. A key already
// gone is deleted too.
func (r Rotation) deleteOld(ctx context.Context, api RotationAPI) (Rotation, error) {
	if err := r.deleteSafe(); err != nil {
		return r, err
	}
	if err := r.heldSincePlan(ctx, api); err != nil {
		return r, err
	}
	gone, onRetry, err := r.keys(api).Delete(ctx, r.Old)
	if err != nil {
		r.DeleteUnknown = apiclient.OutcomeUnknown(err)
		return r, err
	}
	r.Deleted, r.OldGone, r.DeletedOnRetry = true, gone, onRetry
	r.recordDeleted()
	return r, nil
}

// disableOld turns the old key off (a soft rotation), once every guard of
// the delete holds: its clients stop reporting, and it can be turned on
// again; the rotation stays open until the old key is deleted.
func (r Rotation) disableOld(ctx context.Context, api RotationAPI) (Rotation, error) {
	if err := r.deleteSafe(); err != nil {
		return r, err
	}
	if err := r.heldSincePlan(ctx, api); err != nil {
		return r, err
	}
	d, ok := r.keys(api).(keystore.Disabler)
	if !ok {
		return r, &SoftUnsupportedError{Project: r.Project}
	}
	if _, err := d.SetActive(ctx, r.Old, false); err != nil {
		return r, err
	}
	r.Disabled, r.Old.Active = true, false
	r.noteDisabled()
	return r, nil
}

// verify sends one test event with the new DSN; a refusal is a
// *testevent.RefusedError and keeps the old key.
func (r Rotation) verify(ctx context.Context, api testevent.API) (Rotation, error) {
	check, err := testevent.Send(ctx, api, r.Project, *r.New)
	r.Verified = check
	r.noteVerified()
	return r, err
}

// FindKeyRef finds the key ref names in keys.
func FindKeyRef(keys []apiclient.ClientKey, ref string) (apiclient.ClientKey, bool) {
	for _, k := range keys {
		if keystore.KeyRef(k) == ref {
			return k, true
		}
	}
	return apiclient.ClientKey{}, false
}
