package rotation

import (
	"fmt"
	"strconv"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/safetext"
	"github.com/errtrack/errtrack/internal/testevent"
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
	// StepResume: a question: go on with the key an unfinished rotation of
	// the same key made (the ledger's), or start over?
	StepResume
	StepCreate
	StepCheck
	StepChooseVariables // a question: update the variables that hold the old DSN?
	StepUpdateVariables
	StepVerify
	StepConfirmDelete // a question: delete the old key?
	StepDelete
	// StepDisable: a soft rotation turns the old key off instead; it is
	// deleted later, by the same rotation gone on with.
	StepDisable
	StepDone
)

// Question reports a step the user (or a flag) answers rather than a
// request.
func (s Step) Question() bool {
	return s == StepResume || s == StepChooseVariables || s == StepConfirmDelete
}

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
	// DeleteWithUnreadGroups lets the old key go although some ancestor
	// groups' variables could not be read (a Confirmed delete otherwise
	// keeps it: nobody was shown them).
	DeleteWithUnreadGroups bool
	// Ledger records the rotation and finds an unfinished one of the same
	// key to go on with; nil keeps nothing.
	Ledger *Rotations
	// GoOn and Restart answer the resume question beforehand: go on with
	// the key an unfinished rotation made (the commands' default), or
	// leave that key as it is and make a new one (--restart).
	GoOn, Restart bool
	// Campaign is the group rotation this rotation is part of.
	Campaign string
	// Keys is where the project's keys are (nil: GitLab's integrated
	// keys); OldRef names the key to replace there when it has no
	// numeric ID (a Sentry key's public key). NewName names the new key
	// where the store names keys (Sentry).
	Keys    keystore.KeyStore
	OldRef  string
	NewName string
	// Resolve, with Keys nil, finds the store from the project's settings
	// (read with the plan): a Sentry-backed project's keys are its
	// Sentry's.
	Resolve keystore.SentryResolver
	// Soft disables the old key instead of deleting it (where the store
	// can: Sentry): the rotation stays open until it is deleted later.
	Soft bool
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
	Project projectscope.Project
	Old     apiclient.ClientKey
	New     *apiclient.ClientKey
	// Listed: the server's key list holds the new key.
	Listed bool
	// Deleted: the old key no longer exists. OldGone says it was deleted
	// elsewhere; DeletedOnRetry that a lost answer was retried. Disabled:
	// a soft rotation turned the old key off, to delete later.
	Deleted, OldGone, DeletedOnRetry, Disabled bool
	// CreateUnknown and DeleteUnknown: the answer was lost; the change may
	// or may not have been made.
	CreateUnknown, DeleteUnknown bool
	// NewGone: the key an unfinished rotation made, gone on with, is no
	// longer in the project; only a restart makes a new one.
	NewGone bool
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
	// GroupsUnread are the ancestor groups whose variables could not be
	// read, with why: whether they hold the old DSN is unknown, so the old
	// key goes only with the user's consent (a delete confirmed by someone
	// shown them, or DeleteWithUnreadGroups).
	GroupsUnread map[string]error
	// Verified is the ingestion endpoint's answer to the test event.
	Verified *apiclient.DSNCheck
	// Earlier is the unfinished rotation of the same key the ledger holds,
	// whose new key this one goes on with (or leaves, on a restart).
	Earlier *ledger.Record
	// Settled are other unfinished rotations its delete ended: those of
	// the old key (finished) and those that made it (abandoned).
	Settled []ledger.Record

	opts    RotationOptions
	planned bool
	// read is what the plan read of the keys: the keys seen, and how many
	// there are (the new key's page on GitLab); known their refs.
	read      keystore.KeysRead
	known     []string
	variables decision
	resume    decision // decidedUpdate: go on; decidedKeep: restart
	confirmed bool
	// rec is the rotation's ledger record once its create is under way;
	// intent: a group run wrote it ahead, on disk (prepareCreates).
	rec    ledger.Record
	intent bool
	// groupUsesKnown: GroupUses were read by the plan (a group rotation's,
	// once per group), not to be read again.
	groupUsesKnown bool
	// groupUsesSeen: the delete was confirmed by someone shown GroupUses.
	groupUsesSeen bool
	// groups reads the ancestor groups' variables again before the
	// delete (a group run's reader reads each group once); nil: afresh.
	groups  *projectscope.GroupVariablesReader
	stopped bool
	failed  Step
	err     error
}

// OldKeyID is the key being replaced: the one asked for until the plan
// has read it.
func (r Rotation) OldKeyID() int64 {
	if r.Old.ID != 0 {
		return r.Old.ID
	}
	return r.opts.OldID
}

// Failed reports the step that failed and its error, if one did.
func (r Rotation) Failed() (Step, error) { return r.failed, r.err }

// Checks say how the user checks what a lost answer left, from where they
// are: a command, or the console's refresh.
type Checks struct {
	Keys      string // e.g. "check with 'errtrack keys list -p 1'"
	Variables string // e.g. "check in the project's Settings > CI/CD > Variables"
	Settings  string // e.g. "check with 'errtrack settings get -p 1'"
	// OldKeysStep runs a migration's later step, which deletes the
	// migrated projects' glet_ keys ("errtrack migrate … --delete-old-keys").
	OldKeysStep string
	// Restart says how to leave an unfinished rotation and make a new key
	// ("run it again with --restart").
	Restart string
	// SwitchOff switches the project's error tracking off ("errtrack
	// settings disable").
	SwitchOff string
}

// RotationAPI is what a rotation needs.
type RotationAPI interface {
	keystore.KeysAPI
	projectscope.GroupVariablesAPI
	VariableAPI
	testevent.API
	keystore.SettingsReader
	// UserAPI names the user in the ledger's records.
	UserAPI
}

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
	if k.ID == 0 {
		return keystore.KeyName(k)
	}
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

// keys is where the project's keys are: the store given, else GitLab's.
func (r Rotation) keys(api keystore.KeysAPI) keystore.KeyStore {
	if r.opts.Keys != nil {
		return r.opts.Keys
	}
	return keystore.GitLabKeys(api, r.Project.Ref)
}

// canDisable: the store turns keys off (a soft rotation's way).
func canDisable(s keystore.KeyStore) bool {
	_, ok := s.(keystore.Disabler)
	return ok
}

// oldRef names the key asked for, "" for the project's only key.
func (r Rotation) oldRef() string {
	if r.opts.OldRef != "" {
		return r.opts.OldRef
	}
	if r.opts.OldID != 0 {
		return strconv.FormatInt(r.opts.OldID, 10)
	}
	return ""
}
