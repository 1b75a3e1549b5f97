package migrate

import (
	"strings"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/safetext"
)

// The ledger's target is the target: a migration under way goes on with
// the Sentry project (and key) it began with, whatever the project is now
// called or the naming rule now says; and a Sentry project is never the
// target of two GitLab projects, across runs too.

// ParseLedgerTarget reads the ledger's "BASE/ORG/SLUG" (the base may
// hold a path).
func ParseLedgerTarget(s string) (sentry.Project, bool) {
	i := strings.LastIndex(s, "/")
	if i <= 0 {
		return sentry.Project{}, false
	}
	j := strings.LastIndex(s[:i], "/")
	if j <= 0 {
		return sentry.Project{}, false
	}
	return sentry.Project{Base: s[:j], Org: s[j+1 : i], Slug: s[i+1:]}, true
}

// keptTarget is the target of a project's migration under way: the one
// the ledger recorded. A target given otherwise explicitly (another
// Sentry or organisation, or a mapping naming the project) is refused
// with why; a naming rule's other answer (the project renamed or moved,
// another rule) goes on with the recorded one, and note says so.
func (k MigrateChange) keptTarget(p projectscope.Project, prev ledger.Record, now sentry.Project) (target sentry.Project, refused, note string) {
	rec, ok := ParseLedgerTarget(prev.Target)
	if !ok || rec == now {
		return now, "", ""
	}
	begun := "its migration under way (begun " + prev.Started.Local().Format("2006-01-02 15:04") + ") goes to " +
		safetext.Excerpt(TargetName(rec), 120) + " at " + safetext.Excerpt(rec.Base, 120)
	switch {
	case rec.Base == now.Base && rec.Org != now.Org && k.AskTarget:
		// The console's plan is its question: it names the target the
		// migration goes on with, and the user says yes or no.
		return rec, "", "goes on to " + safetext.Excerpt(TargetName(rec), 120) + ", where its migration began, not to organisation " + safetext.Excerpt(now.Org, 80)
	case rec.Base != now.Base || rec.Org != now.Org:
		return now, begun + ", not this run's " + safetext.Excerpt(TargetName(now), 120) + " at " + safetext.Excerpt(now.Base, 120) +
			": migrate it to that Sentry and organisation to go on (no second Sentry project is made)", ""
	case k.Named != nil && k.Named(p):
		return now, begun + "; the mapping (--mapping) names " + safetext.Excerpt(TargetName(now), 120) +
			": map it to " + safetext.Excerpt(rec.Slug, 80) + ", or leave it out of the mapping, to go on", ""
	}
	return rec, "", "the Sentry project its migration began with, though its name now gives " + safetext.Excerpt(now.Slug, 80)
}

// takenBy names the GitLab project another migration in the ledger
// carried, or is carrying, to target; "" when none.
func takenBy(l *rotation.Rotations, projectID int64, target sentry.Project) string {
	r, ok := l.MigrationTo(ledgerTarget(target), projectID)
	if !ok {
		return ""
	}
	return safetext.Excerpt(r.ProjectPath, 120) + " (its migration begun " + r.Started.Local().Format("2006-01-02") + ")"
}

// ownSentry is a Sentry-backed project's own target, as its settings name
// it; "" when they name none errtrack reads.
func ownSentry(s *apiclient.Settings) string {
	if !keystore.SentryBacked(s) {
		return ""
	}
	p, err := sentry.ParseAPIURL(*s.APIURL)
	if err != nil {
		return ""
	}
	return ledgerTarget(p)
}

// crossCheckOwn stops a migration to a Sentry project a planned
// Sentry-backed project already reports to: the two would share it.
func crossCheckOwn(items []change.Item) {
	own := map[string]string{}
	for _, it := range items {
		if o := migrationResultOf(it).sentryOwn; o != "" {
			own[o] = it.Project.Name()
		}
	}
	for i := range items {
		it := &items[i]
		if !it.Acts() || plannedMigration(*it) == nil {
			continue
		}
		t := plannedMigration(*it).target
		if other, ok := own[ledgerTarget(t)]; ok && other != it.Project.Name() {
			it.Action, it.Result = "", change.ResultFailed
			withMigration(it, nil)
			it.Skip = "its Sentry project " + safetext.Excerpt(TargetName(t), 120) + " is already the one " + safetext.Excerpt(other, 120) + " reports to: give it its own (a mapping)"
		}
	}
}
