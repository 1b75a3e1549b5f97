package tui

import (
	"fmt"
	"time"

	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/migrate"
)

// A project migrated to a Sentry reports there: its Settings and Client
// keys tabs name the Sentry project, and offer neither a new glet_ key,
// a rotation of one, nor turning integrated tracking on again as the next
// step.

// migration is the project's migration the ledger holds (under way,
// carried across, or finished), if any.
func (p *keysPane) migration() (ledger.Record, bool) {
	for _, r := range p.open.val {
		if r.Kind == ledger.KindMigration {
			return r, true
		}
	}
	return ledger.Record{}, false
}

// migratedNote words the project's migration on the Client keys tab.
func (p *keysPane) migratedNote(r ledger.Record) string {
	k := p.sh.keys
	to := migrate.MigrationTarget(r)
	switch r.Phase {
	case ledger.PhaseDone:
		return clean(fmt.Sprintf("Migrated to the Sentry project %s on %s: its clients send there; its integrated keys were deleted.", to, r.Started.Local().Format(time.DateOnly)))
	case ledger.PhaseMigrated:
		return clean(fmt.Sprintf("Migrated to the Sentry project %s on %s: its clients send there now. These integrated keys stay until they have moved; %s in the %s menu of the marked projects deletes them.", to, r.Updated.Local().Format(time.DateOnly), keyName(k.BulkDeleteOld), keyName(k.Bulk)))
	}
	return clean(fmt.Sprintf("Migration to the Sentry project %s open since %s: %s in the %s menu of the marked projects goes on with it.", to, r.Started.Local().Format(time.DateOnly), keyName(k.BulkMigrate), keyName(k.Bulk)))
}

// integratedStays says, for n or R on a migrated project's glet_ keys,
// where its keys are now.
func (p *keysPane) integratedStays() string {
	r, _ := p.migration()
	return clean("This project was migrated to the Sentry project " + migrate.MigrationTarget(r) + ": its clients use that project's key, and its integrated keys are not made or rotated any more.")
}

// migratedSettingsNote is the Settings tab's line for a migrated project
// whose GitLab settings do not name its Sentry yet.
func migratedSettingsNote(r ledger.Record, page string) string {
	return clean("Migrated to the Sentry project " + migrate.MigrationTarget(r) + " on " + r.Started.Local().Format(time.DateOnly) +
		": its clients send there. GitLab's own Sentry settings are still to fill in, in its web UI (its API cannot set the Sentry's URL): " + page)
}
