package audit

import (
	"context"
	"fmt"
	"strings"

	"github.com/errtrack/errtrack/internal/migrate"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/testevent"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/dsn"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/safetext"
	"github.com/errtrack/errtrack/internal/wording"
)

// The day after a migration the project reports to its Sentry project,
// and GitLab's integrated side is what is left behind: the doctor checks
// the Sentry side (the key the migration took, each variable on its DSN,
// GitLab's own Sentry settings still to fill in) and never advises
// turning integrated tracking on again or making a glet_ key.

// doctorMigrated are the checks of a migrated project whose GitLab
// settings do not name its Sentry yet.
func doctorMigrated(ctx context.Context, api DoctorAPI, a *Audit, rec ledger.Record, o DoctorOptions, explain wording.Explainer) []Check {
	var out []Check
	add := func(name, status, detail, fix string) {
		out = append(out, Check{Name: name, Status: status, Detail: detail, Fix: fix})
	}
	where := migrate.MigrationTarget(rec)
	detail := "migrated to Sentry project " + where + " on " + rec.Started.Local().Format("2006-01-02")
	if rec.Phase == ledger.PhaseDone {
		detail += "; its integrated keys were deleted"
	} else {
		detail += "; its integrated keys stay until the migration's later step deletes them"
		if o.OldKeysStep != "" {
			detail += " (" + o.OldKeysStep + ")"
		}
	}
	add("migration", CheckOK, detail, "")

	page := projectscope.SettingsPage(o.Ledger.Host(), a.Project)
	switch s := a.Settings; {
	case s != nil && s.Integrated && s.Active:
		add("settings", CheckWarn, "GitLab's integrated tracking is still on (the migration left it on: something unseen may have held a glet_ DSN); GitLab's own Sentry settings are not filled in",
			"switch integrated tracking off once every client sends to the Sentry DSN, then name the Sentry in GitLab's web UI: "+page)
	default:
		add("settings", CheckWarn, "GitLab's own Sentry settings are not filled in: the project's error list in GitLab does not show the Sentry's issues",
			"name the Sentry in GitLab's web UI (its API cannot set the Sentry's URL): "+page)
	}

	t, ok := migrate.ParseLedgerTarget(rec.Target)
	if !ok || o.Resolve == nil {
		add("Sentry key", CheckSkip, "the Sentry project "+where+" is not checked here (no Sentry to reach)", "")
		return out
	}
	store, err := o.Resolve(ctx, t.Base+"/api/0/projects/"+t.Org+"/"+t.Slug+"/")
	if err != nil {
		add("Sentry key", CheckFail, "the Sentry project "+where+" could not be reached: "+explain(err), "")
		return out
	}
	keys, err := store.All(ctx)
	if err != nil {
		add("Sentry key", CheckFail, "the keys of the Sentry project "+where+" could not be read: "+explain(err), "")
		return out
	}
	var key *apiclient.ClientKey
	for i, k := range keys {
		if k.PublicKey == rec.NewPublic {
			key = &keys[i]
		}
	}
	switch {
	case key == nil:
		add("Sentry key", CheckFail, "the key the migration took ("+safetext.Excerpt(rec.NewPublic, 12)+"…) is no longer in "+where+": the variables hold a DSN Sentry refuses",
			"point the variables at an active key of "+where)
		return out
	case !key.Active:
		add("Sentry key", CheckFail, "the key "+keystore.KeyName(*key)+" of "+where+" that the variables hold is disabled: Sentry refuses its events", "enable it in "+where)
	default:
		add("Sentry key", CheckOK, "key "+keystore.KeyName(*key)+" of "+where+" is active", "")
	}
	out = append(out, sentryIngestion(ctx, api, a.Project, *key, o, explain))
	out = append(out, migratedVariables(ctx, api, a, rec, *key))
	return out
}

// sentryIngestion checks the Sentry DSN: a test event with
// SendTestEvent, else whether its host answers.
func sentryIngestion(ctx context.Context, api DoctorAPI, p projectscope.Project, key apiclient.ClientKey, o DoctorOptions, explain wording.Explainer) Check {
	name := "ingestion (Sentry key " + keystore.KeyName(key) + ")"
	d, err := dsn.Parse(key.DSN)
	if err != nil {
		return Check{Name: name, Status: CheckFail, Detail: "its DSN cannot be used: " + err.Error()}
	}
	if o.SendTestEvent {
		check, err := testevent.Send(ctx, api, p, key)
		if err != nil {
			return Check{Name: name, Status: CheckFail, Detail: explain(err), Fix: testevent.RefusedAdvice}
		}
		return Check{Name: name, Status: CheckOK, Detail: fmt.Sprintf("%s accepted a test event (HTTP %d)", d.Host, check.StatusCode)}
	}
	if _, err := api.ProbeDSN(ctx, key.DSN); err != nil {
		return Check{Name: name, Status: CheckFail, Detail: "the DSN's host " + d.Host + " does not answer: " + explain(err), Fix: "check the network path to the Sentry's ingestion"}
	}
	if o.SendHint != "" {
		// The front end's way sends with a key it lists: a glet_ one here.
		return Check{Name: name, Status: CheckOK, Detail: d.Host + " answers (no event sent)"}
	}
	return Check{Name: name, Status: CheckOK, Detail: d.Host + " answers (no event sent; --send-test-event sends one)"}
}

// migratedVariables checks each variable the migration pointed at the
// Sentry DSN still holds it, and that none holds an integrated DSN.
func migratedVariables(ctx context.Context, api DoctorAPI, a *Audit, rec ledger.Record, key apiclient.ClientKey) Check {
	const name = "CI/CD variables"
	vars, _, err := api.ListVariables(ctx, a.Project.Ref)
	if err != nil {
		return Check{Name: name, Status: CheckWarn, Detail: "the project's variables could not be read: whether they hold the Sentry DSN is unknown"}
	}
	byGroup := projectscope.AncestorVariables(ctx, api, a.Project.Path).Read
	var on, off, unknown []string
	for _, lv := range rec.Variables {
		label := rotation.VariableTarget{Key: lv.Key, Scope: lv.Scope}.Label()
		list := vars
		if lv.Group != "" {
			label = "group " + safetext.Excerpt(lv.Group, 80) + "/" + label
			var read bool
			if list, read = byGroup[lv.Group]; !read {
				unknown = append(unknown, label)
				continue
			}
		}
		holds := false
		for _, v := range list {
			if v.Key == lv.Key && rotation.ScopeOf(v.EnvironmentScope) == rotation.ScopeOf(lv.Scope) && rotation.HoldsDSN(v, key.DSN) {
				holds = true
			}
		}
		if holds {
			on = append(on, label)
		} else {
			off = append(off, label)
		}
	}
	var old []string
	for _, k := range a.Keys {
		for _, u := range k.Known() {
			old = append(old, u.Label())
		}
	}
	switch {
	case len(off) > 0:
		return Check{Name: name, Status: CheckFail, Detail: strings.Join(off, ", ") + " no longer hold the Sentry DSN the migration set", Fix: "point them at the DSN of key " + keystore.KeyName(key)}
	case len(old) > 0:
		return Check{Name: name, Status: CheckWarn, Detail: strings.Join(old, ", ") + " still hold an integrated (glet_) DSN", Fix: "point them at the DSN of key " + keystore.KeyName(key) + " before the integrated keys go"}
	case len(unknown) > 0:
		return Check{Name: name, Status: CheckWarn, Detail: strings.Join(unknown, ", ") + " could not be read: whether they hold the Sentry DSN is unknown"}
	case len(a.Unread) > 0 && rec.Phase != ledger.PhaseDone:
		return Check{Name: name, Status: CheckWarn, Detail: wording.Plural(len(on), "variable holds", "variables hold") + " the Sentry DSN; " + migrate.UnreadGroupsWords(a.Unread),
			Fix: "a group Owner checks them before the integrated keys go"}
	}
	return Check{Name: name, Status: CheckOK, Detail: wording.Plural(len(on), "variable holds", "variables hold") + " the Sentry DSN, none an integrated one"}
}

// migrationUnderWay is the check of a migration begun and not carried
// across yet (its test event refused, its answer lost): integrated
// tracking is still on, and the migration goes on from where it stopped.
func migrationUnderWay(o DoctorOptions, projectID int64) (Check, bool) {
	rec, ok := o.Ledger.MigrationOf(projectID)
	if !ok || !rec.IsOpen() || rec.Phase == ledger.PhaseMigrated {
		return Check{}, false
	}
	fix := "run the migration again: it goes on with the Sentry project and key it made"
	if o.MigrateStep != "" {
		fix = o.MigrateStep + " goes on with the Sentry project and key it made"
	}
	return Check{Name: "migration", Status: CheckWarn, Fix: fix,
		Detail: "a migration to the Sentry project " + migrate.MigrationTarget(rec) + " is under way since " + rec.Started.Local().Format("2006-01-02") + ": integrated tracking stays on until it is carried across"}, true
}
