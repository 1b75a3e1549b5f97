// Package ledger keeps errtrack's rotation ledger: one append-only file of
// JSON lines in the state directory, each line the whole state of one
// rotation (or of one group rotation, a campaign) at a moment. The newest
// line of an ID is its state; the file is compacted to one line per ID now
// and then, so a record costs the same at 10 or 10,000 projects. Every
// process that rotates a key reads it before it creates one: an
// interrupted rotation goes on with the key it made, whoever runs it next.
//
// The package stores and locks; what a phase means, and when a rotation
// may go on with another's key, is the workflow's.
package ledger

import "time"

// Phases of a rotation. A rotation has no record before its create is
// sent: nothing that happened before it needs going on with.
const (
	PhaseCreating  = "creating"  // the create was sent; its answer may be lost
	PhaseCreated   = "created"   // the new key exists; the old one too
	PhaseVariables = "variables" // the chosen variables hold the new DSN
	PhaseKept      = "kept"      // both keys stay; the old key's delete is left to do
	PhaseDisabled  = "disabled"  // a soft rotation turned the old key off; its delete is left to do
	PhaseDone      = "done"      // the old key is gone: finished
	PhaseAbandoned = "abandoned" // a restart left it; its new key stays as it is
	PhaseSettled   = "settled"   // the old key went elsewhere (by hand, another run)
	PhaseFailed    = "failed"    // the create was refused: nothing was made
)

// Open reports a phase of a rotation that is not finished.
func Open(phase string) bool {
	switch phase {
	case PhaseCreating, PhaseCreated, PhaseVariables, PhaseKept, PhaseDisabled, PhaseProjectCreating, PhaseMigrated:
		return true
	}
	return false
}

// Kinds of record.
const (
	KindRotation  = "rotation"
	KindCampaign  = "campaign"
	KindMigration = "migration"
)

// Phases of a migration to a Sentry, after the rotation's (creating,
// created: its Sentry key; variables; done: the old keys deleted).
const (
	PhaseProjectCreating = "project-creating" // the Sentry project's create was sent
	PhaseMigrated        = "migrated"         // the variables hold the Sentry DSN, a test event was accepted; the old keys stay
)

// Variable is a CI/CD variable a rotation changes or found holding the old
// DSN: by name and environment scope, never by value.
type Variable struct {
	Key   string `json:"key"`
	Scope string `json:"environment_scope"`
	// Group is a group variable's group path; empty for the project's own.
	Group string `json:"group,omitempty"`
	// Result: updated, created, unchanged, unknown, failed.
	Result string `json:"result,omitempty"`
}

// TestEvent is the ingestion endpoint's answer to a rotation's test event.
type TestEvent struct {
	Accepted bool `json:"accepted"`
	Status   int  `json:"status"`
}

// Record is one line of the ledger: a rotation's or a campaign's state.
// Only the fields of its kind are set.
type Record struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
	Host string `json:"host"`

	// A rotation's.
	ProjectID   int64     `json:"project_id,omitempty"`
	ProjectPath string    `json:"project,omitempty"`
	Backend     string    `json:"backend,omitempty"`
	OldKeyID    int64     `json:"old_key_id,omitempty"`
	OldPublic   string    `json:"old_public_key,omitempty"`
	NewKeyID    int64     `json:"new_key_id,omitempty"`
	NewPublic   string    `json:"new_public_key,omitempty"`
	Named       *Variable `json:"named_variable,omitempty"`
	// Variables are the project's and its groups' variables the rotation
	// changed or found holding the old DSN, with what happened to each.
	Variables []Variable `json:"variables,omitempty"`
	// Before are the project's keys (IDs, or a Sentry key's public key)
	// when the create was sent, when they
	// were few enough to keep: a key not among them found after a lost
	// answer is the one the create made. With many keys, BeforeMax is the
	// highest (GitLab's key IDs are one growing sequence) and a key above
	// it is the one. BeforeComplete: every key was read.
	Before         []string   `json:"keys_before,omitempty"`
	BeforeMax      int64      `json:"key_id_before_max,omitempty"`
	BeforeComplete bool       `json:"key_ids_before_complete,omitempty"`
	TestEvent      *TestEvent `json:"test_event,omitempty"`
	Campaign       string     `json:"campaign,omitempty"`
	// Target is a migration's Sentry project: "BASE/ORG/SLUG".
	Target string `json:"target,omitempty"`
	// SwitchedOff: a migration switched GitLab's integrated tracking off.
	SwitchedOff bool `json:"switched_off,omitempty"`

	// A campaign's: a group rotation of the keys Variable (in Scope) holds,
	// and the projects its runs set out to rotate.
	Variable string  `json:"variable,omitempty"`
	Scope    string  `json:"environment_scope,omitempty"`
	Group    string  `json:"group,omitempty"`
	Projects []int64 `json:"projects,omitempty"`

	Phase    string     `json:"phase"`
	User     string     `json:"user,omitempty"`
	FrontEnd string     `json:"front_end,omitempty"`
	Started  time.Time  `json:"started"`
	Updated  time.Time  `json:"updated"`
	Ended    *time.Time `json:"ended,omitempty"`
	// Note says why it ended, or what is left to do.
	Note string `json:"note,omitempty"`
}

// Campaign phases.
const (
	CampaignOpen      = "open"
	CampaignFinished  = "finished"
	CampaignRestarted = "restarted"
)

// IsOpen reports a record whose rotation or campaign is not finished.
func (r Record) IsOpen() bool {
	if r.Kind == KindCampaign {
		return r.Phase == CampaignOpen
	}
	return Open(r.Phase)
}
