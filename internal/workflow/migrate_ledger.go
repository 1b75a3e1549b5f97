package workflow

import (
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/safetext"
)

// What the ledger says of a project's migration, for the doctor and the
// overview.

// Migrated is a project's migration the ledger holds as carried across
// (its variables on the Sentry DSN, a test event accepted), with its
// integrated keys still there or deleted since; false for none.
func (l *Rotations) Migrated(projectID int64) (ledger.Record, bool) {
	rec, ok := l.MigrationOf(projectID)
	if !ok || rec.Phase != ledger.PhaseMigrated && rec.Phase != ledger.PhaseDone {
		return ledger.Record{}, false
	}
	return rec, true
}

// MigrationTarget names a migration's Sentry project for people:
// "ORG/SLUG at BASE".
func MigrationTarget(rec ledger.Record) string {
	t, ok := ParseLedgerTarget(rec.Target)
	if !ok {
		return safetext.Excerpt(rec.Target, 160)
	}
	return safetext.Excerpt(TargetName(t), 120) + " at " + safetext.Excerpt(t.Base, 120)
}
