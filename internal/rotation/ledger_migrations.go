package rotation

import "github.com/errtrack/errtrack/internal/ledger"

// What the ledger says of a project's migration to Sentry, for the
// migration itself, the doctor and the overview.

// MigrationOf is the project's last migration in the ledger, if any.
func (l *Rotations) MigrationOf(projectID int64) (ledger.Record, bool) {
	if l == nil {
		return ledger.Record{}, false
	}
	recs := l.store.ProjectMigrations(l.host, projectID, nil)
	if len(recs) == 0 {
		return ledger.Record{}, false
	}
	return recs[len(recs)-1], true
}

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

// MigrationTo is another project's migration in the ledger that carried,
// or is carrying, it to target (as the ledger names targets), unless it
// was abandoned or failed.
func (l *Rotations) MigrationTo(target string, otherThan int64) (ledger.Record, bool) {
	if l == nil {
		return ledger.Record{}, false
	}
	for _, r := range l.store.Records(func(r ledger.Record) bool {
		return r.Kind == ledger.KindMigration && r.Host == l.host && r.ProjectID != otherThan && r.Target == target &&
			r.Phase != ledger.PhaseAbandoned && r.Phase != ledger.PhaseFailed
	}) {
		return r, true
	}
	return ledger.Record{}, false
}
