package workflow

import "github.com/errtrack/errtrack/apiclient"

// KindResult is what one kind of change knows of a project, planned and
// then done: a RotationResult, SettingsResult, VerifyResult or
// MigrationResult. The front ends switch on its type, never on which
// fields happen to be set.
type KindResult interface{ kindResult() }

// RotationResult is a rotation's: the old key and the new one (zero until
// made; a Sentry key is named by its public key), and the rotation itself,
// planned, then as it ended. GoesOn: it goes on with the key an unfinished
// rotation made; DoneBefore: an earlier run of the group rotation rotated
// it.
type RotationResult struct {
	Old, New           apiclient.ClientKey
	Rotation           *Rotation
	GoesOn, DoneBefore bool
}

// SettingsResult is a settings change's: whether it creates them, and the
// server's answer (nil until answered).
type SettingsResult struct {
	Creates  bool
	Settings *apiclient.Settings
}

// VerifyResult is a test event's: the key whose DSN it is sent with, and
// the answer (nil until sent).
type VerifyResult struct {
	Key   apiclient.ClientKey
	Check *apiclient.DSNCheck
}

// MigrationResult is a migration's: the Sentry key the variables hold once
// it is done, its test event, and whether it goes on with an earlier run.
type MigrationResult struct {
	Key    apiclient.ClientKey
	Check  *apiclient.DSNCheck
	GoesOn bool
	// migration is the plan and its state.
	migration *migration
	// sentryOwn is a Sentry-backed project's own Sentry project, as a
	// migration's ledger names targets: no migration may take it.
	sentryOwn string
}

func (RotationResult) kindResult()  {}
func (SettingsResult) kindResult()  {}
func (VerifyResult) kindResult()    {}
func (MigrationResult) kindResult() {}

// rotation is the item's rotation result (zero for another kind).
func (it Item) rotation() RotationResult {
	r, _ := it.Detail.(RotationResult)
	return r
}

// migrationResult is the item's migration result (zero for another kind).
func (it Item) migrationResult() MigrationResult {
	m, _ := it.Detail.(MigrationResult)
	return m
}

// plannedMigration is the item's migration plan, nil when there is none.
func (it Item) plannedMigration() *migration { return it.migrationResult().migration }

// withMigration sets the item's migration plan (nil: none), keeping the
// rest of its migration result.
func (it *Item) withMigration(m *migration) {
	r := it.migrationResult()
	r.migration = m
	it.Detail = r
}
