package rotation

import (
	"fmt"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// NoSuchKeyError: the key to replace is not in the project.
type NoSuchKeyError struct {
	Project projectscope.Project
	ID      int64
	// Ref names a key with no numeric ID (a Sentry key's public key).
	Ref string
	// Closed are the unfinished rotations the key's absence closed, as a
	// delete through errtrack closes them.
	Closed []ledger.Record
}

func (e *NoSuchKeyError) Error() string {
	name := fmt.Sprint(e.ID)
	if e.ID == 0 {
		name = e.Ref
	}
	s := fmt.Sprintf("project %s has no client key %s", e.Project.Name(), name)
	if len(e.Closed) == 0 {
		return s + ": nothing was changed"
	}
	s += " (deleted outside errtrack)"
	for _, rec := range e.Closed {
		switch {
		case rec.Phase == ledger.PhaseAbandoned:
			s += fmt.Sprintf("; the unfinished rotation that made it (to replace key %s) is closed", keystore.KeyName(OldKeyOf(rec)))
		case Made(rec):
			s += fmt.Sprintf("; its unfinished rotation to key %s is finished in the ledger", keystore.KeyName(NewKeyOf(rec)))
			for _, v := range rec.Variables {
				if v.Result != "updated" && v.Result != "created" && v.Group == "" {
					s += fmt.Sprintf("; %s still held its DSN: point it at key %s's DSN", VariableRefLabel(v), keystore.KeyName(NewKeyOf(rec)))
				}
			}
		default:
			s += "; its unfinished rotation is closed in the ledger"
		}
	}
	return s + ". Nothing was changed"
}

// NewKeyGoneError: the key an unfinished rotation made, which this one went
// on with, is no longer in the project (deleted outside the rotation).
type NewKeyGoneError struct {
	Key    apiclient.ClientKey
	Record ledger.Record
}

func (e *NewKeyGoneError) Error() string {
	return fmt.Sprintf("key %s, made by the unfinished rotation of key %s begun %s, is no longer in the project",
		keystore.KeyName(e.Key), keystore.KeyName(OldKeyOf(e.Record)), e.Record.Started.Local().Format("2006-01-02 15:04"))
}

// AmbiguousError: the project has several keys and none was named.
type AmbiguousError struct {
	Project projectscope.Project
	Count   int
}

func (e *AmbiguousError) Error() string {
	if e.Count == 0 {
		return fmt.Sprintf("project %s has no client key to replace: create one instead", e.Project.Name())
	}
	return fmt.Sprintf("project %s has %d client keys: name the one to replace", e.Project.Name(), e.Count)
}

// SoftUnsupportedError: a soft rotation was asked of a project whose keys
// are GitLab's, which cannot be disabled; nothing was changed.
type SoftUnsupportedError struct{ Project projectscope.Project }

func (e *SoftUnsupportedError) Error() string {
	return "a soft rotation disables the old key, and " + e.Project.Name() + "'s keys are GitLab's integrated keys, which cannot be disabled: rotate it without it (the old key is deleted), nothing was changed"
}

// UnnamedKeysError: a name was given for the new key of a project whose
// keys are GitLab's, which have none.
type UnnamedKeysError struct{ Project projectscope.Project }

func (e *UnnamedKeysError) Error() string {
	return "a name was given for the new key, and " + e.Project.Name() + "'s keys are GitLab's integrated keys, which have no names: rotate it without one, nothing was changed"
}

// NotListedError: the server created a key it does not list.
type NotListedError struct{ Key apiclient.ClientKey }

func (e *NotListedError) Error() string {
	return fmt.Sprintf("the new key %s is not in the project's key list", keystore.KeyName(e.Key))
}

// NotNewError: the server's answer to the create names a key that existed
// before (a replaying proxy, a buggy server): no new key is known.
type NotNewError struct {
	Key apiclient.ClientKey
	Old bool // it is the key being replaced
}

func (e *NotNewError) Error() string {
	if e.Old {
		return fmt.Sprintf("the server's answer to the create names key %s, the key being replaced", keystore.KeyName(e.Key))
	}
	return fmt.Sprintf("the server's answer to the create names key %s, which existed before", keystore.KeyName(e.Key))
}

// UnsafeDeleteError: a guard of the delete failed; the old key is kept.
type UnsafeDeleteError struct {
	Reason string
	// Groups: the guard on the groups' variables, which a group
	// rotation words with its own way out.
	Groups bool
	// outside: variables of the rotated one's name in other environment
	// scopes hold the old DSN; no flag overrides it (scopes never mix).
	outside bool
	// unread: the groups whose variables could not be read.
	unread []string
}

func (e *UnsafeDeleteError) Error() string { return "the old key is not deleted: " + e.Reason }

// UnreadGroups are the groups whose variables could not be read when
// they stopped the delete, nearest first; nil for another guard.
func (e *UnsafeDeleteError) UnreadGroups() []string { return e.unread }

// UnreadGroupsError is the guard on ancestor groups whose variables could
// not be read: they may hold the old DSN.
func (r Rotation) UnreadGroupsError() *UnsafeDeleteError {
	gv := projectscope.GroupVariables{Unread: r.GroupsUnread}
	return &UnsafeDeleteError{Reason: gv.UnreadWords() + ", so whether they hold its DSN is unknown", unread: gv.UnreadGroups()}
}

// ForeignDSNError: the new key's DSN is not one this project's clients can
// use: the listing gives it another project or host than the old key's, or
// the create's answer named another than the listing. The variables are
// not moved and the old key stays.
type ForeignDSNError struct {
	Key apiclient.ClientKey
	// Why says what differs, in a clause ("its DSN names project 7, the
	// old key's names project 5").
	Why string
}

func (e *ForeignDSNError) Error() string {
	return fmt.Sprintf("the new key %s cannot be used here: %s", keystore.KeyName(e.Key), e.Why)
}

// GroupVariablesError stops a project's rotation before its create (or
// its delete): variables of its groups, which a rotation does not change,
// hold the old DSN. Each front end words what to do about it.
type GroupVariablesError struct {
	// Uses names them: "CI/CD variable SENTRY_DSN (environment
	// production) of group web".
	Uses string
}

func (e *GroupVariablesError) Error() string {
	return "the old DSN is held by the " + e.Uses
}

// Advice is the one way both front ends offer past the group's
// variables, rotateAlone naming how to rotate the project on its own
// there: never one that deletes a key those variables still hand out.
func (e *GroupVariablesError) Advice(rotateAlone string) string {
	return "rotate it on its own (" + rotateAlone + "): the old key stays until the group's variables hold the new DSN"
}
