package audit

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/change/changetest"
	"github.com/errtrack/errtrack/internal/flowtest"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/keystore"
)

// After a migration (open, and after its later step) the doctor checks
// the Sentry side: the key the migration took is active, each variable
// holds its DSN, GitLab's own Sentry settings are still to fill in (the
// page named on its host), a test event goes through the Sentry DSN; it
// never advises turning integrated tracking on or making a glet_ key.
func TestDoctorOfAMigratedProjectChecksItsSentry(t *testing.T) {
	w := newMigrationWorld(t)
	w.GitLab.MakeGroupOwner("demo", 1)
	ctx := context.Background()
	if done := changetest.RunPlan(t, ctx, changetest.PlanOne(t, w.Client, "demo/web-shop", w.kind(t, w.SentryClient, false)), w.Client, nil); done.Items[0].Result != change.ResultChanged {
		t.Fatalf("%+v", done.Items[0])
	}
	resolve := func(_ context.Context, apiURL string) (keystore.KeyStore, error) {
		p, err := sentry.ParseAPIURL(apiURL)
		return keystore.SentryKeys(w.SentryClient, p), err
	}
	o := DoctorOptions{Ledger: w.Ledger, Resolve: resolve, SendTestEvent: true, OldKeysStep: "the later step"}
	sentryKey := w.Sentry.Keys("demo", "demo-web-shop")[0]
	check := func(stage string) {
		t.Helper()
		events := w.Sentry.Events(sentryKey.Public)
		checks := Doctor(ctx, w.Client, apiclient.ProjectID(1), o, flowtest.ExplainPlain, time.Now())
		for _, c := range checks {
			if c.Action.Do == ActEnable || c.Action.Do == ActCreateKey || strings.Contains(c.Fix, "enable") && !strings.Contains(c.Fix, "enable it in") {
				t.Fatalf("%s: %s advises %q", stage, c.Name, c.Fix)
			}
		}
		if Failed(checks) || statusOf(checks, "migration").Status != CheckOK || !strings.Contains(statusOf(checks, "migration").Detail, "demo/demo-web-shop") {
			t.Fatalf("%s: %+v", stage, checks)
		}
		if c := statusOf(checks, "settings"); c.Status != CheckWarn || !strings.Contains(c.Fix, flowtest.TestHost+"/demo/web-shop/-/settings/operations") {
			t.Fatalf("%s: %+v", stage, c)
		}
		if c := statusOf(checks, "Sentry key"); c.Status != CheckOK {
			t.Fatalf("%s: %+v", stage, c)
		}
		if c := statusOf(checks, "CI/CD"); c.Status != CheckOK || !strings.Contains(c.Detail, "1 variable holds the Sentry DSN") {
			t.Fatalf("%s: %+v", stage, c)
		}
		if c := statusOf(checks, "ingestion (Sentry key"); c.Status != CheckOK || w.Sentry.Events(sentryKey.Public) != events+1 {
			t.Fatalf("%s: no test event through the Sentry DSN: %+v", stage, c)
		}
	}
	check("open")
	// Without a test event, the console's hint (v on a key it lists, a
	// glet_ one here) is not given for the Sentry key.
	quiet := o
	quiet.SendTestEvent, quiet.SendHint = false, "v on the key sends one"
	if c := statusOf(Doctor(ctx, w.Client, apiclient.ProjectID(1), quiet, flowtest.ExplainPlain, time.Now()), "ingestion (Sentry key"); c.Status != CheckOK || strings.Contains(c.Detail, "v on the key") {
		t.Fatalf("%+v", c)
	}
	changetest.RunPlan(t, ctx, changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, w.kind(t, w.SentryClient, true)), w.Client, nil)
	if w.GitLab.KeyCount(1) != 0 {
		t.Fatal("the later step did not run")
	}
	check("after the later step")

	// A variable moved off the Sentry DSN fails, with the key named.
	if _, _, err := w.Client.UpdateVariableValue(ctx, apiclient.ProjectID(1), "SENTRY_DSN", "*", "https://elsewhere.example/1"); err != nil {
		t.Fatal(err)
	}
	checks := Doctor(ctx, w.Client, apiclient.ProjectID(1), o, flowtest.ExplainPlain, time.Now())
	if c := statusOf(checks, "CI/CD"); c.Status != CheckFail || !strings.Contains(c.Detail, "SENTRY_DSN") {
		t.Fatalf("%+v", checks)
	}
}

// A migration under way (its test event refused) is named by the doctor
// with how it goes on; integrated tracking is still on, and nothing
// advises turning it on or making a key.
func TestDoctorNamesAMigrationUnderWay(t *testing.T) {
	w := newMigrationWorld(t)
	w.GitLab.MakeGroupOwner("demo", 1)
	ctx := context.Background()
	w.RefuseEvents.Store(true)
	changetest.RunPlan(t, ctx, changetest.PlanOne(t, w.Client, "demo/web-shop", w.kind(t, w.SentryClient, false)), w.Client, nil)
	checks := Doctor(ctx, w.Client, apiclient.ProjectID(1), DoctorOptions{Ledger: w.Ledger, MigrateStep: "the same migrate"}, flowtest.ExplainPlain, time.Now())
	c := statusOf(checks, "migration")
	if c.Status != CheckWarn || !strings.Contains(c.Detail, "demo/demo-web-shop") || !strings.Contains(c.Fix, "the same migrate goes on") {
		t.Fatalf("%+v", checks)
	}
	for _, c := range checks {
		if c.Action.Do == ActEnable || c.Action.Do == ActCreateKey {
			t.Fatalf("%s advises %q", c.Name, c.Fix)
		}
	}
}

// After the migration of a project whose group's CI/CD variables the
// token cannot read (the migration's own test holds that integrated
// tracking stays on), its doctor says the group's variables may still
// hand out a glet_ DSN.
func TestDoctorAfterAMigrationWhoseGroupIsUnread(t *testing.T) {
	w := newMigrationWorld(t)
	ctx := context.Background()
	changetest.RunPlan(t, ctx, changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, w.kind(t, w.SentryClient, false)), w.Client, nil)
	checks := Doctor(ctx, w.Client, apiclient.ProjectID(1), DoctorOptions{Ledger: w.Ledger, Resolve: func(_ context.Context, apiURL string) (keystore.KeyStore, error) {
		p, err := sentry.ParseAPIURL(apiURL)
		return keystore.SentryKeys(w.SentryClient, p), err
	}}, flowtest.ExplainPlain, time.Now())
	if c := statusOf(checks, "CI/CD"); c.Status != CheckWarn || !strings.Contains(c.Detail, "group demo") {
		t.Fatalf("%+v", checks)
	}
}
