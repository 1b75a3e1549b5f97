package rotation

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
)

// What a rotation writes in the ledger, step by step: the record starts
// with the create (nothing before it needs going on with), on disk before
// the create is sent, and follows each step after.

// named is the variable the rotation was asked to point at the new DSN,
// by name and scope: part of its identity.
func (r Rotation) named() *ledger.Variable {
	if r.opts.Variable == "" {
		return nil
	}
	scope := r.opts.Scope
	for _, v := range r.Variables {
		if v.Named {
			scope = v.Scope
		}
	}
	return &ledger.Variable{Key: r.opts.Variable, Scope: ScopeOf(scope)}
}

// findEarlier looks up the unfinished rotation of the same key to go on
// with. One whose create lost its answer is resolved from the project's
// keys: the key it made, or none (then it is closed as failed).
func (r Rotation) findEarlier(ctx context.Context, api keystore.KeysAPI) (Rotation, error) {
	l := r.opts.Ledger
	if l == nil {
		return r, nil
	}
	rec, ok := l.openFor(r.Project.ID, r.Old, r.named())
	if !ok {
		return r, nil
	}
	if rec.Phase == ledger.PhaseCreating {
		if l.atIt(rec) {
			// Its create is in flight in a live run: what it made is not
			// known yet.
			return r, &BusyError{Project: r.Project}
		}
		k, found, err := resolveCreating(ctx, r.keys(api), rec, l.othersNewKeys(rec))
		switch {
		case err != nil && r.resume == decidedKeep:
			// Restarting: it is closed at the create, naming the doubt.
		case err != nil:
			return r, err
		case !found:
			rec.Phase, rec.Note = ledger.PhaseFailed, "its create's answer was lost, and it made no key"
			rec.Ended = l.Stamp()
			_ = l.Put(rec, false)
			return r, nil
		default:
			rec.NewKeyID, rec.NewPublic, rec.Phase = k.ID, k.PublicKey, ledger.PhaseCreated
			if err := l.Put(rec, false); err != nil {
				return r, &LedgerError{Before: "going on with key " + fmt.Sprint(k.ID), Err: err}
			}
		}
	}
	r.Earlier = &rec
	return r, nil
}

func (l *Rotations) Stamp() *time.Time {
	t := l.now().UTC()
	return &t
}

// claimCreate claims the project for the create, checks that no other run
// made a key for this rotation since the plan, closes the earlier rotation
// a restart leaves, and records the create before it is sent.
func (r *Rotation) claimCreate() (release func(), err error) {
	l := r.opts.Ledger
	if l == nil {
		return func() {}, nil
	}
	// A group run holds its group rotation's claim for the whole run; a
	// single rotation claims the project for its create. Either way the
	// claim says a live process is at it.
	release = func() {}
	if r.opts.Campaign == "" {
		release, err = l.store.Claim(ledger.ProjectClaim(l.host, r.Project.ID))
		switch {
		case errors.Is(err, ledger.ErrBusy):
			return nil, &BusyError{Project: r.Project}
		case err != nil:
			return nil, &LedgerError{Before: "creating the new key", Err: err}
		}
	}
	now := l.now().UTC()
	var recs []ledger.Record
	if e := r.Earlier; e != nil && r.resume == decidedKeep {
		left := *e
		left.Phase, left.Ended = ledger.PhaseAbandoned, &now
		left.Note = "left by a restart"
		if Made(*e) {
			left.Note += fmt.Sprintf(": key %s stays as it is (delete it if nothing uses it)", keystore.KeyName(NewKeyOf(*e)))
		}
		left.Updated = now
		recs = append(recs, left)
	}
	if !r.intent { // a group run's is on disk already, with its batch
		r.rec = r.creatingRecord(now)
		r.rec.Updated = now
		recs = append(recs, r.rec)
	}
	// Checked and written at once, under the ledger's lock: another run
	// that made a key for this rotation since the plan stops this one.
	named := r.named()
	rec, found, err := l.store.AppendUnless(recs, true, l.host, r.Project.ID, func(x ledger.Record) bool {
		return recordsOld(x, r.Old) && x.IsOpen() && sameVariable(x.Named, named) &&
			(r.Earlier == nil || x.ID != r.Earlier.ID) && x.ID != r.rec.ID
	})
	switch {
	case err != nil:
		release()
		return nil, &LedgerError{Before: "creating the new key", Err: err}
	case found:
		release()
		return nil, &MadeMeanwhileError{Record: rec}
	}
	return release, nil
}

// creatingRecord is the rotation's record as its create is sent.
func (r *Rotation) creatingRecord(now time.Time) ledger.Record {
	l := r.opts.Ledger
	rec := ledger.Record{Kind: ledger.KindRotation, ID: newID("r-", now), Host: l.host, ProjectID: r.Project.ID,
		ProjectPath: r.Project.Path, Backend: r.backend(), OldKeyID: r.Old.ID, OldPublic: r.Old.PublicKey,
		Named: r.named(), Phase: ledger.PhaseCreating, User: l.user, FrontEnd: l.frontEnd, Campaign: r.opts.Campaign,
		Started: now, Variables: r.ledgerVariables()}
	rec.BeforeMax = r.Old.ID
	for _, k := range r.read.Seen {
		rec.BeforeMax = max(rec.BeforeMax, k.ID)
	}
	rec.BeforeComplete = r.read.Counted && len(r.known) >= r.read.Count
	// Keys with no ordered ID (a Sentry's) can only be told by their refs:
	// all of them are kept, however many.
	if rec.BeforeComplete && (len(r.known) <= keptBefore || r.backend() != keystore.BackendGitLab) {
		rec.Before = slices.Clone(r.known)
	}
	return rec
}

// keptBefore is how many key IDs a record keeps: a page's worth.
const keptBefore = 100

// recordCreated writes the new key. The record of the create already
// finds it again if this one is lost with a crash, unless the plan saw
// only some of the keys: then it is synced too.
func (r *Rotation) recordCreated() error {
	l := r.opts.Ledger
	if l == nil {
		return nil
	}
	r.rec.NewKeyID, r.rec.NewPublic, r.rec.Phase = r.New.ID, r.New.PublicKey, ledger.PhaseCreated
	if err := l.Put(r.rec, !r.rec.BeforeComplete); err != nil {
		r.stopped = true
		return &LedgerError{Before: fmt.Sprintf("going on with key %d, which was created", r.New.ID), Err: err}
	}
	return nil
}

// endRecord ends the record with phase and a note.
func (r *Rotation) endRecord(phase, note string) {
	l := r.opts.Ledger
	if l == nil || r.rec.ID == "" {
		return
	}
	r.rec.Phase, r.rec.Note, r.rec.Ended = phase, note, l.Stamp()
	r.rec.Variables = r.ledgerVariables()
	_ = l.Put(r.rec, false)
}

// noteCheck writes what the check learnt: the public key of a key gone on
// with, and the groups' variables holding the old DSN.
func (r *Rotation) noteCheck() {
	if r.opts.Ledger == nil || r.rec.ID == "" || (r.rec.NewPublic == r.New.PublicKey && len(r.GroupUses) == 0) {
		return
	}
	r.rec.NewPublic = r.New.PublicKey
	r.rec.Variables = r.ledgerVariables()
	_ = r.opts.Ledger.Put(r.rec, false)
}

// noteVariables writes what happened to each variable. A group run going
// straight on to the delete leaves it to the delete's record (or to
// saveState, when the rotation stops before it): one append less a project.
func (r *Rotation) noteVariables() {
	if r.opts.Campaign != "" && r.confirmed && !r.opts.Soft && r.err == nil {
		return
	}
	r.SaveState()
}

// SaveState writes where an unfinished rotation stands.
func (r *Rotation) SaveState() {
	if r.opts.Ledger == nil || r.rec.ID == "" || !ledger.Open(r.rec.Phase) {
		return
	}
	r.rec.Variables = r.ledgerVariables()
	if Made(r.rec) && !r.VariablesPending() && len(r.StillOld()) == 0 {
		r.rec.Phase = ledger.PhaseVariables
	}
	_ = r.opts.Ledger.Put(r.rec, false)
}

// noteDisabled writes a soft rotation's old key turned off: the rotation
// stays open until the old key is deleted.
func (r *Rotation) noteDisabled() {
	if r.opts.Ledger == nil || r.rec.ID == "" {
		return
	}
	r.rec.Phase, r.rec.Variables = ledger.PhaseDisabled, r.ledgerVariables()
	_ = r.opts.Ledger.Put(r.rec, false)
}

// noteVerified writes the test event's answer.
func (r *Rotation) noteVerified() {
	if r.opts.Ledger == nil || r.rec.ID == "" || r.Verified == nil {
		return
	}
	r.rec.TestEvent = &ledger.TestEvent{Accepted: r.Verified.Accepted, Status: r.Verified.StatusCode}
	_ = r.opts.Ledger.Put(r.rec, false)
}

// recordDeleted ends the rotation: the old key is gone. Other unfinished
// rotations of the same old key (another variable's, or scope's) are
// finished by it too.
func (r *Rotation) recordDeleted() {
	l := r.opts.Ledger
	if l == nil {
		return
	}
	note := ""
	if r.OldGone {
		note = "the old key was already gone (deleted elsewhere)"
	}
	r.endRecord(ledger.PhaseDone, note)
	r.Settled = l.keyGone(r.Project.ID, r.Old, r.rec.ID, fmt.Sprintf("key %s was deleted by rotation %s", keystore.KeyName(r.Old), r.rec.ID))
}

// SettleOldKey finishes the unfinished rotations of a project's key that
// is gone, but the one named except.
func (l *Rotations) SettleOldKey(projectID int64, key apiclient.ClientKey, except, note string) []ledger.Record {
	if l == nil {
		return nil
	}
	var out []ledger.Record
	for _, rec := range l.store.ProjectRotations(l.host, projectID, func(x ledger.Record) bool {
		return recordsOld(x, key) && x.IsOpen() && x.ID != except
	}) {
		rec.Phase, rec.Note, rec.Ended = ledger.PhaseSettled, note, l.Stamp()
		if l.Put(rec, false) == nil {
			out = append(out, rec)
		}
	}
	return out
}

// ledgerVariables are the variables for the record: the project's the
// rotation points at the new DSN or found holding the old one, and the
// groups' holding it.
func (r Rotation) ledgerVariables() []ledger.Variable {
	var now []ledger.Variable
	for _, v := range r.Variables {
		now = append(now, ledger.Variable{Key: v.Key, Scope: ScopeOf(v.Scope), Result: v.Result()})
	}
	for _, u := range r.GroupUses {
		now = append(now, ledger.Variable{Key: u.Variable, Scope: ScopeOf(u.Scope), Group: u.Group, Result: "unchanged"})
	}
	return mergeVariables(r.rec.Variables, now)
}

// mergeVariables is what a rotation did to each variable, over all its
// runs: one gone on with no longer sees the variables an earlier run
// pointed at the new DSN (they hold it now), and what that run did stays.
func mergeVariables(recorded, now []ledger.Variable) []ledger.Variable {
	same := func(a, b ledger.Variable) bool { return a.Group == b.Group && a.Key == b.Key && a.Scope == b.Scope }
	done := func(v ledger.Variable) bool { return v.Result == "updated" || v.Result == "created" }
	out := slices.Clone(recorded)
	for _, v := range now {
		i := slices.IndexFunc(out, func(o ledger.Variable) bool { return same(o, v) })
		switch {
		case i < 0:
			out = append(out, v)
		case !done(out[i]) || done(v):
			out[i] = v
		}
	}
	return out
}

// backend names where the rotation's keys are.
func (r Rotation) backend() string {
	if r.opts.Keys != nil {
		return r.opts.Keys.Backend()
	}
	return keystore.BackendGitLab
}

// atIt reports a live run at a rotation: the claim of its group rotation
// (for a group run's) or of its project is held.
func (l *Rotations) atIt(rec ledger.Record) bool {
	name := ledger.ProjectClaim(l.host, rec.ProjectID)
	if rec.Campaign != "" {
		if c, ok := l.store.Get(rec.Campaign); ok {
			name = ledger.CampaignClaim(l.host, c.Variable, c.Scope)
		}
	}
	held, _ := l.store.Held(name) // a state directory that cannot be written holds no claim
	return held
}

// MadeKey is the unfinished rotation of the project whose new key is key.
func (l *Rotations) MadeKey(projectID int64, key apiclient.ClientKey) (ledger.Record, bool) {
	if l == nil {
		return ledger.Record{}, false
	}
	for _, r := range l.store.ProjectRotations(l.host, projectID, func(r ledger.Record) bool {
		return recordsNew(r, key) && r.IsOpen()
	}) {
		return r, true
	}
	return ledger.Record{}, false
}

// KeyDeleted finishes the project's unfinished rotations of a deleted key
// and leaves those that made it.
func (l *Rotations) KeyDeleted(projectID int64, key apiclient.ClientKey) []ledger.Record {
	if l == nil {
		return nil
	}
	_ = l.store.Refresh()
	return l.keyGone(projectID, key, "", fmt.Sprintf("key %s was deleted", keystore.KeyName(key)))
}

// keyGoneOutside closes the project's unfinished rotations a key found gone
// ends: it was deleted outside them (by hand, or a delete whose answer
// was lost).
func (l *Rotations) keyGoneOutside(projectID int64, key apiclient.ClientKey) []ledger.Record {
	if l == nil || (key.ID == 0 && key.PublicKey == "") {
		return nil
	}
	return l.keyGone(projectID, key, "", fmt.Sprintf("key %s is gone: it was deleted outside this rotation", keystore.KeyName(key)))
}

// keyGone closes the open rotations a deleted key ends, but the one named
// except (the rotation that deleted it): those that replaced it are
// finished (note says how), those that made it are abandoned (nothing
// replaced their old key).
func (l *Rotations) keyGone(projectID int64, key apiclient.ClientKey, except, note string) []ledger.Record {
	closed := l.SettleOldKey(projectID, key, except, note)
	for _, rec := range l.store.ProjectRotations(l.host, projectID, func(x ledger.Record) bool {
		return x.ID != except && recordsNew(x, key) && x.IsOpen()
	}) {
		rec.Phase, rec.Ended = ledger.PhaseAbandoned, l.Stamp()
		rec.Note = fmt.Sprintf("its new key %s was deleted, so key %s was not replaced", keystore.KeyName(key), keystore.KeyName(OldKeyOf(rec)))
		if l.Put(rec, false) == nil {
			closed = append(closed, rec)
		}
	}
	return closed
}
