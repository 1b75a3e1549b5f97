package migrate

import (
	"context"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/change/changetest"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// A migration under way run again after the project's name changed (or
// with another naming rule) goes on with the Sentry project and key the
// ledger recorded: no second Sentry project or key, and the variables
// stay on the key the test event went through. A target the user names
// otherwise (another organisation, a mapping) is refused, naming why.
func TestMigrationGoesOnWithTheLedgersTarget(t *testing.T) {
	w := newMigrationWorld(t)
	w.GitLab.MakeGroupOwner("demo", 1)
	ctx := context.Background()
	w.RefuseEvents.Store(true)
	first := changetest.RunPlan(t, ctx, changetest.PlanOne(t, w.Client, "demo/web-shop", w.kind(t, w.SentryClient, false)), w.Client, nil)
	if first.Items[0].Result != change.ResultFailed || w.Creates.Load() != 1 {
		t.Fatalf("%+v", first.Items[0])
	}
	w.RefuseEvents.Store(false)

	renamed := w.kind(t, w.SentryClient, false)
	renamed.Slug = func(projectscope.Project) string { return "shop-renamed" }
	named := renamed
	named.Named = func(projectscope.Project) bool { return true }
	if it := changetest.PlanOne(t, w.Client, "demo/web-shop", named).Items[0]; it.Acts() || !strings.Contains(it.Skip, "--mapping") || !strings.Contains(it.Skip, "demo/demo-web-shop") {
		t.Fatalf("a mapping naming another target was taken: %+v", it)
	}
	otherOrg := w.kind(t, w.SentryClient, false)
	otherOrg.Org = "elsewhere"
	if it := changetest.PlanOne(t, w.Client, "demo/web-shop", otherOrg).Items[0]; it.Acts() || !strings.Contains(it.Skip, "migrate it to that Sentry and organisation") {
		t.Fatalf("another organisation was taken: %+v", it)
	}

	p := changetest.PlanOne(t, w.Client, "demo/web-shop", renamed)
	if it := p.Items[0]; !it.Acts() || !strings.Contains(it.Action, "demo/demo-web-shop") || !strings.Contains(it.Action, "SENTRY_DSN (all environments) moved to the Sentry DSN by the run before") {
		t.Fatalf("%+v", it)
	}
	done := changetest.RunPlan(t, ctx, p, w.Client, nil)
	if it := done.Items[0]; it.Result != change.ResultChanged {
		t.Fatalf("%+v", it)
	}
	keys := w.Sentry.Keys("demo", "demo-web-shop")
	if w.Creates.Load() != 1 || len(w.Sentry.Keys("demo", "shop-renamed")) != 0 || len(keys) != 1 {
		t.Fatalf("a second Sentry project or key: %d creates, keys %+v", w.Creates.Load(), keys)
	}
	for _, v := range w.GitLab.Variables(1) {
		if v.Key == "SENTRY_DSN" && !strings.Contains(v.Value, keys[0].Public) {
			t.Fatalf("SENTRY_DSN holds %q", v.Value)
		}
	}
	// The ledger still names the variable the first run moved.
	if recs := w.Ledger.Store().ProjectMigrations(flowtest.TestHost, 1, nil); len(recs) != 1 || len(recs[0].Variables) != 1 || recs[0].Variables[0].Key != "SENTRY_DSN" {
		t.Fatalf("%+v", recs)
	}
}

// Two GitLab projects never share a Sentry project, across runs too: a
// target another project's migration took in an earlier run is refused,
// and so is one a planned Sentry-backed project reports to.
func TestMigrationTargetsNeverSharedAcrossRuns(t *testing.T) {
	w := newMigrationWorld(t)
	w.GitLab.MakeGroupOwner("demo", 1)
	ctx := context.Background()
	shared := w.kind(t, w.SentryClient, false)
	shared.Slug = func(projectscope.Project) string { return "shared" }
	if done := changetest.RunPlan(t, ctx, changetest.PlanOne(t, w.Client, "demo/web-shop", shared), w.Client, nil); done.Items[0].Result != change.ResultChanged {
		t.Fatalf("%+v", done.Items[0])
	}
	it := changetest.PlanOne(t, w.Client, "demo/paused", shared).Items[0]
	if it.Acts() || !strings.Contains(it.Skip, "already the target of demo/web-shop") {
		t.Fatalf("a second project took demo/shared: %+v", it)
	}

	legacy := w.kind(t, w.SentryClient, false)
	legacy.Base = "https://sentry.example.com" // where demo/legacy-api reports
	legacy.Slug = func(p projectscope.Project) string {
		if p.Path == "demo/mobile/ios" {
			return "legacy-api"
		}
		return Slugify(p.Path)
	}
	if it := changetest.ByPath(changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, legacy))["demo/mobile/ios"]; it.Acts() || !strings.Contains(it.Skip, "already the one demo/legacy-api reports to") {
		t.Fatalf("the Sentry project of demo/legacy-api taken: %+v", it)
	}
}

// In the console the plan is the question: a migration under way in
// another organisation of the same Sentry goes on there, and the plan
// says so before the user says yes; another Sentry is refused.
func TestMigrationUnderWayElsewhereIsAskedInTheConsole(t *testing.T) {
	w := newMigrationWorld(t)
	w.GitLab.MakeGroupOwner("demo", 1)
	ctx := context.Background()
	w.RefuseEvents.Store(true)
	changetest.RunPlan(t, ctx, changetest.PlanOne(t, w.Client, "demo/web-shop", w.kind(t, w.SentryClient, false)), w.Client, nil)
	w.RefuseEvents.Store(false)
	k := w.kind(t, w.SentryClient, false)
	k.Org, k.AskTarget = "elsewhere", true
	it := changetest.PlanOne(t, w.Client, "demo/web-shop", k).Items[0]
	if !it.Acts() || !strings.Contains(it.Action, "goes on to demo/demo-web-shop, where its migration began") {
		t.Fatalf("%+v", it)
	}
	k.Base = "https://other.example"
	if it := changetest.PlanOne(t, w.Client, "demo/web-shop", k).Items[0]; it.Acts() {
		t.Fatalf("another Sentry taken: %+v", it)
	}
}

// A ledger target without its Sentry's base is not taken for one.
func TestLedgerTargetNeedsItsBase(t *testing.T) {
	if _, ok := ParseLedgerTarget("/demo/shop"); ok {
		t.Fatal("a target without a base was read")
	}
	if p, ok := ParseLedgerTarget("https://sentry.example/prefix/demo/shop"); !ok || p.Base != "https://sentry.example/prefix" || p.Org != "demo" || p.Slug != "shop" {
		t.Fatalf("%+v %v", p, ok)
	}
}
