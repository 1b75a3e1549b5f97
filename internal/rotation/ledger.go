package rotation

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// Every rotation, from either front end, single or group, is written in the
// ledger before its create is sent and after each step, by its identity:
// the host, the project, the old key, and the variable it was asked to
// point at the new DSN (name and scope). A rotation of the same key asked
// again goes on with the key an unfinished one made instead of making
// another; scopes never mix.

// Front ends, as the ledger names who ran a rotation.
const (
	FrontEndCommand      = "keys rotate"
	FrontEndGroupCommand = "keys rotate --group"
	FrontEndConsole      = "console"
	FrontEndConsoleBulk  = "console (marked projects)"
	FrontEndMigrate      = "migrate"
)

// Rotations is the ledger as one host's rotations use it; a nil
// *Rotations keeps nothing (tests of single steps).
type Rotations struct {
	store    *ledger.Ledger
	host     string
	frontEnd string
	user     string
	now      func() time.Time
}

// NewRotations is the ledger store for host's rotations run from frontEnd.
func NewRotations(store *ledger.Ledger, host, frontEnd string) *Rotations {
	return &Rotations{store: store, host: host, frontEnd: frontEnd, now: time.Now}
}

// WithUser names the GitLab user running the rotations.
func (l *Rotations) WithUser(user string) *Rotations {
	if l == nil {
		return nil
	}
	c := *l
	c.user = user
	return &c
}

// WithUserOf is the ledger naming the user api's token belongs to (one
// request; a user that cannot be read leaves the records without a name).
func (l *Rotations) WithUserOf(ctx context.Context, api UserAPI) *Rotations {
	if l == nil || l.HasUser() {
		return l
	}
	return l.WithUser(CurrentUser(ctx, api))
}

// WithFrontEnd is the same ledger for another front end.
func (l *Rotations) WithFrontEnd(frontEnd string) *Rotations {
	if l == nil {
		return nil
	}
	c := *l
	c.frontEnd = frontEnd
	return &c
}

// Store is the ledger behind it (nil for none).
func (l *Rotations) Store() *ledger.Ledger {
	if l == nil {
		return nil
	}
	return l.store
}

// Host is the GitLab the rotations are on.
func (l *Rotations) Host() string {
	if l == nil {
		return ""
	}
	return l.host
}

// HasUser reports that the user is known (no lookup needed).
func (l *Rotations) HasUser() bool { return l == nil || l.user != "" }

// NewRecord is a record of kind on the ledger's host, begun now by its
// user from its front end, with an ID of its own (prefix, then the date).
func (l *Rotations) NewRecord(kind, prefix string) ledger.Record {
	now := l.now().UTC()
	return ledger.Record{Kind: kind, ID: newID(prefix, now), Host: l.host, User: l.user, FrontEnd: l.frontEnd, Started: now}
}

// newID is a rotation's or campaign's ID: the date and random hex.
func newID(prefix string, now time.Time) string {
	var b [5]byte
	_, _ = rand.Read(b[:])
	return prefix + now.UTC().Format("20060102") + "-" + hex.EncodeToString(b[:])
}

// sameVariable reports whether two named variables are the same one; a
// rotation that named none goes on with any.
func sameVariable(a, b *ledger.Variable) bool {
	if a == nil || b == nil {
		return true
	}
	return a.Key == b.Key && ScopeOf(a.Scope) == ScopeOf(b.Scope)
}

// ScopeOf is an environment scope, "*" for all environments.
func ScopeOf(s string) string {
	if s == "" {
		return "*"
	}
	return s
}

// openFor is the unfinished rotation of the project's old key, for the
// named variable (nil: any), that this rotation goes on with, if any.
func (l *Rotations) openFor(projectID int64, old apiclient.ClientKey, named *ledger.Variable) (ledger.Record, bool) {
	if l == nil {
		return ledger.Record{}, false
	}
	var found ledger.Record
	ok := false
	for _, r := range l.store.ProjectRotations(l.host, projectID, func(r ledger.Record) bool {
		return recordsOld(r, old) && r.IsOpen() && sameVariable(r.Named, named)
	}) {
		// The newest one: an older one still open was left by a restart
		// that could not write its end.
		if !ok || r.Started.After(found.Started) {
			found, ok = r, true
		}
	}
	return found, ok
}

// OpenRotations are the unfinished rotations of a project on this host
// (the console shows them where the project is open).
func (l *Rotations) OpenRotations(projectID int64) []ledger.Record {
	if l == nil {
		return nil
	}
	_ = l.store.Refresh()
	return l.store.ProjectRotations(l.host, projectID, ledger.Record.IsOpen)
}

// OpenChanges are a project's unfinished rotations and migrations.
func (l *Rotations) OpenChanges(projectID int64) []ledger.Record {
	if l == nil {
		return nil
	}
	return append(l.OpenRotations(projectID), l.store.ProjectMigrations(l.host, projectID, ledger.Record.IsOpen)...)
}

// Put writes the rotation's state.
func (l *Rotations) Put(rec ledger.Record, durable bool) error {
	if l == nil {
		return nil
	}
	rec.Updated = l.now().UTC()
	return l.store.Append(rec, durable)
}

// LedgerError: the ledger could not be written before a step, so the step
// was not taken.
type LedgerError struct {
	Before string // "creating the new key"
	Err    error
}

func (e *LedgerError) Error() string {
	return "the rotation ledger could not be written before " + e.Before + ", so it was not done: " + e.Err.Error()
}

func (e *LedgerError) Unwrap() error { return e.Err }

// BusyError: another errtrack run is rotating the project's keys now.
type BusyError struct{ Project projectscope.Project }

func (e *BusyError) Error() string {
	return "another errtrack run is changing the keys of " + e.Project.Name() + " right now"
}

func (e *BusyError) Unwrap() error { return ledger.ErrBusy }

// MadeMeanwhileError: another run made a key for this rotation between
// its plan and its create: nothing is created, and the next run goes on
// with that key.
type MadeMeanwhileError struct {
	Record ledger.Record
}

func (e *MadeMeanwhileError) Error() string {
	if !Made(e.Record) {
		return "another errtrack run began this rotation meanwhile (its create's answer is not known yet)"
	}
	return fmt.Sprintf("another errtrack run made key %s for this rotation meanwhile", keystore.KeyName(NewKeyOf(e.Record)))
}

// UnknownCreateError: an earlier rotation's create lost its answer and the
// project's keys do not tell which key, if any, it made.
type UnknownCreateError struct {
	Record ledger.Record
	// Candidates are the keys made since (none: the list could not tell).
	Candidates []string
}

func (e *UnknownCreateError) Error() string {
	return fmt.Sprintf("an unfinished rotation of key %s (begun %s) may have created a key, and the project's keys do not tell which",
		keystore.KeyName(OldKeyOf(e.Record)), e.Record.Started.Format("2006-01-02 15:04 MST"))
}

// resolveCreating finds the key an unfinished rotation's create made,
// whose answer was lost: the one key the project did not have then (or,
// of a project with many keys, the one above them all). ok is false when
// it surely made none. A key another record names as its new key was made
// by that rotation (taken), so it is never this one's.
func resolveCreating(ctx context.Context, store keystore.KeyStore, rec ledger.Record, taken func(apiclient.ClientKey) bool) (apiclient.ClientKey, bool, error) {
	keys, err := store.All(ctx)
	if err != nil {
		return apiclient.ClientKey{}, false, err
	}
	var made []apiclient.ClientKey
	for _, k := range keys {
		if rec.Before == nil && k.ID == 0 {
			// A key without an ID, and no refs kept to tell it by: which
			// are new cannot be told, so nothing is made again.
			made = keys
			break
		}
		isNew := k.ID > rec.BeforeMax
		if rec.Before != nil {
			isNew = !slices.Contains(rec.Before, keystore.KeyRef(k))
		}
		if isNew && !recordsOld(rec, k) && (taken == nil || !taken(k)) {
			made = append(made, k)
		}
	}
	switch {
	case len(made) == 1 && rec.BeforeComplete:
		return made[0], true, nil
	case len(made) == 0:
		return apiclient.ClientKey{}, false, nil
	}
	ids := make([]string, len(made))
	for i, k := range made {
		ids[i] = keystore.KeyName(k)
	}
	return apiclient.ClientKey{}, false, &UnknownCreateError{Record: rec, Candidates: ids}
}

// othersNewKeys reports a key that a record of rec's project other than rec
// (a rotation or a migration, of any variable or scope) names as the key it
// made.
func (l *Rotations) othersNewKeys(rec ledger.Record) func(apiclient.ClientKey) bool {
	if l == nil {
		return nil
	}
	other := func(x ledger.Record) bool { return x.ID != rec.ID && Made(x) }
	recs := append(l.store.ProjectRotations(l.host, rec.ProjectID, other), l.store.ProjectMigrations(l.host, rec.ProjectID, other)...)
	return func(k apiclient.ClientKey) bool {
		for _, x := range recs {
			if recordsNew(x, k) {
				return true
			}
		}
		return false
	}
}

// VariableRefLabel names a recorded variable: "SENTRY_DSN (production)",
// "group web/SENTRY_DSN (all environments)".
func VariableRefLabel(v ledger.Variable) string {
	t := VariableTarget{Key: v.Key, Scope: v.Scope}
	if v.Group != "" {
		return "group " + v.Group + "/" + t.Label()
	}
	return t.Label()
}

// ErrNoLedger: the front end has no ledger (no state directory).
var ErrNoLedger = errors.New("no rotation ledger")

// UserAPI reads the token's user, for the ledger's records.
type UserAPI interface {
	CurrentUser(ctx context.Context) (*apiclient.User, *apiclient.Response, error)
}

// CurrentUser is the token's username, or "" when it cannot be read.
func CurrentUser(ctx context.Context, api UserAPI) string {
	if me, _, err := api.CurrentUser(ctx); err == nil && me != nil {
		return me.Username
	}
	return ""
}

// OldKeyOf and NewKeyOf are a recorded rotation's keys, as far as the
// ledger knows them (no DSN: the key's listing has it).
func OldKeyOf(rec ledger.Record) apiclient.ClientKey {
	return apiclient.ClientKey{ID: rec.OldKeyID, PublicKey: rec.OldPublic}
}

func NewKeyOf(rec ledger.Record) apiclient.ClientKey {
	return apiclient.ClientKey{ID: rec.NewKeyID, PublicKey: rec.NewPublic}
}

// recordsOld reports a record replacing key k; recordsNew one that made it.
func recordsOld(rec ledger.Record, k apiclient.ClientKey) bool {
	return keystore.SameKey(OldKeyOf(rec), k)
}
func recordsNew(rec ledger.Record, k apiclient.ClientKey) bool {
	return (rec.NewKeyID != 0 || rec.NewPublic != "") && keystore.SameKey(NewKeyOf(rec), k)
}

// Made reports a record whose rotation made its new key.
func Made(rec ledger.Record) bool { return rec.NewKeyID != 0 || rec.NewPublic != "" }
