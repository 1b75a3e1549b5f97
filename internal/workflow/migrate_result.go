package workflow

import "github.com/errtrack/errtrack/apiclient"

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

func (MigrationResult) kindResult() {}

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
