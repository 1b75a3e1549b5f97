package migrate

import (
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/safetext"
)

// What the ledger says of a project's migration, for the doctor and the
// overview.

// MigrationTarget names a migration's Sentry project for people:
// "ORG/SLUG at BASE".
func MigrationTarget(rec ledger.Record) string {
	t, ok := ParseLedgerTarget(rec.Target)
	if !ok {
		return safetext.Excerpt(rec.Target, 160)
	}
	return safetext.Excerpt(TargetName(t), 120) + " at " + safetext.Excerpt(t.Base, 120)
}
