package migrate

import (
	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/keystore"
)

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

func (MigrationResult) KindResult() {}

// Resumes reports a migration that goes on with an earlier run's.
func (r MigrationResult) Resumes() (goesOn, doneBefore bool) { return r.GoesOn, false }

// migrationResultOf is the item's migration result (zero for another kind).
func migrationResultOf(it change.Item) MigrationResult {
	m, _ := it.Detail.(MigrationResult)
	return m
}

// plannedMigration is the item's migration plan, nil when there is none.
func plannedMigration(it change.Item) *migration { return migrationResultOf(it).migration }

// withMigration sets the item's migration plan (nil: none), keeping the
// rest of its migration result.
func withMigration(it *change.Item, m *migration) {
	r := migrationResultOf(*it)
	r.migration = m
	it.Detail = r
}

func (k MigrateChange) Holds(it change.Item) []change.Hold {
	if k.DeleteOldKeys {
		h := []change.Hold{}
		if m := plannedMigration(it); m != nil {
			for _, key := range m.oldKeys {
				h = append(h, change.Hold{Project: it.Project.ID, What: change.HoldKey(keystore.KeyRef(key))})
			}
		}
		return h
	}
	return []change.Hold{{Project: it.Project.ID, What: change.HoldVariables}, {Project: it.Project.ID, What: change.HoldSettings}}
}
