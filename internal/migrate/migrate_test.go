package migrate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/change/changetest"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
)

// migrationWorld is changetest's, where the tests make their migrations.
type migrationWorld struct{ *changetest.MigrationWorld }

func newMigrationWorld(t *testing.T, opts ...mockserver.Options) *migrationWorld {
	t.Helper()
	return &migrationWorld{changetest.NewMigrationWorld(t, opts...)}
}

func (w *migrationWorld) kind(t *testing.T, sc MigrateAPI, deleteOld bool) MigrateChange {
	info, err := w.SentryClient.CheckToken(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return MigrateChange{Sentry: sc, Base: w.Base, Org: "demo", Create: true, Team: "backend", DeleteOldKeys: deleteOld, Token: info, Ledger: w.Ledger,
		Slug: func(p projectscope.Project) string { return strings.ReplaceAll(p.Path, "/", "-") }}
}

// A group's migration interrupted after some projects and run again
// leaves each integrated project with its variables on a Sentry DSN that
// took a test event, integrated tracking off, exactly one Sentry project
// and one key made for it, and its glet_ keys in place until the later
// step deletes them.
func TestMigrationInterruptedAndResumed(t *testing.T) {
	w := newMigrationWorld(t, mockserver.Options{ScaleGroup: 12})
	ctx, cancel := context.WithCancel(context.Background())
	ended := 0
	first := changetest.RunPlan(t, ctx, changetest.Plan(t, w.Client, flowtest.Fleet(), false, w.kind(t, w.SentryClient, false)), w.Client, func(e change.Event) {
		if e.Done {
			if ended++; ended == 2 {
				cancel()
			}
		}
	})
	if first.Count(change.ResultChanged) == 0 || !first.Interrupted() {
		t.Fatalf("the first run was not cut off midway: %+v", first.Items)
	}
	second := changetest.RunPlan(t, context.Background(), changetest.Plan(t, w.Client, flowtest.Fleet(), false, w.kind(t, w.SentryClient, false)), w.Client, nil)
	if second.Failed() != 0 {
		t.Fatalf("%+v", second.Items)
	}
	migrated := map[int64]string{}
	for i := int64(1); i <= 12; i++ {
		migrated[2000+i] = fmt.Sprintf("fleet-app-%03d", i)
	}
	if n := int(w.Creates.Load()); n != len(migrated) {
		t.Fatalf("%d Sentry projects created for %d projects", n, len(migrated))
	}
	for id, slug := range migrated {
		keys := w.Sentry.Keys("demo", slug)
		if len(keys) != 1 || w.Sentry.Events(keys[0].Public) == 0 {
			t.Fatalf("%s: keys %+v, events %d", slug, keys, w.Sentry.Events(keys[0].Public))
		}
		for _, v := range w.GitLab.Variables(id) {
			if v.Key == "SENTRY_DSN" && !strings.Contains(v.Value, keys[0].Public) {
				t.Fatalf("project %d's SENTRY_DSN holds %q", id, v.Value)
			}
		}
		if s, _, err := w.Client.GetSettings(context.Background(), apiclient.ProjectID(id)); err != nil || s.Active {
			t.Fatalf("project %d: integrated tracking is still on (%v)", id, err)
		}
		if w.GitLab.KeyCount(id) == 0 {
			t.Fatalf("project %d's glet_ keys were deleted before --delete-old-keys", id)
		}
	}
	// The later step deletes them and finishes each migration.
	last := changetest.RunPlan(t, context.Background(), changetest.Plan(t, w.Client, flowtest.Fleet(), false, w.kind(t, w.SentryClient, true)), w.Client, nil)
	if last.Failed() != 0 || last.Count(change.ResultChanged) != len(migrated) {
		t.Fatalf("%+v", last.Items)
	}
	for id := range migrated {
		if n := w.GitLab.KeyCount(id); n != 0 {
			t.Fatalf("project %d keeps %d integrated keys", id, n)
		}
		if recs := w.Ledger.Store().ProjectMigrations(flowtest.TestHost, id, nil); len(recs) != 1 || recs[0].Phase != ledger.PhaseDone {
			t.Fatalf("project %d: %+v", id, recs)
		}
	}
}

// lostProjects makes the Sentry project but loses the answer.
type lostProjects struct{ MigrateAPI }

func (l lostProjects) CreateProject(ctx context.Context, org, team string, o sentry.CreateProjectOptions) (*sentry.SentryProject, error) {
	_, _ = l.MigrateAPI.CreateProject(ctx, org, team, o)
	return nil, &sentry.Error{StatusCode: 502, Kind: sentry.ErrServer, Message: "502 Bad Gateway"}
}

// A Sentry project whose create lost its answer is taken by the run
// started again, not made twice; the project was under way, not failed.
func TestMigrationLostProjectCreate(t *testing.T) {
	w := newMigrationWorld(t)
	first := changetest.RunPlan(t, context.Background(), changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, w.kind(t, lostProjects{w.SentryClient}, false)), w.Client, nil)
	if it := changetest.ByPath(first)["demo/web-shop"]; it.Result != change.ResultUnderWay || !strings.Contains(it.Words, "may or may not have been created") {
		t.Fatalf("%+v", it)
	}
	made := w.Creates.Load()
	second := changetest.RunPlan(t, context.Background(), changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, w.kind(t, w.SentryClient, false)), w.Client, nil)
	if second.Failed() != 0 || w.Creates.Load() != made {
		t.Fatalf("%d more projects made: %+v", w.Creates.Load()-made, second.Items)
	}
	if keys := w.Sentry.Keys("demo", "demo-web-shop"); len(keys) != 1 {
		t.Fatalf("keys %+v", keys)
	}
}

// The old keys stay while a variable still holds their DSN.
func TestDeleteOldKeysRefusedWhileHeld(t *testing.T) {
	w := newMigrationWorld(t)
	w.GitLab.MakeGroupOwner("demo", 1)
	ctx := context.Background()
	changetest.RunPlan(t, ctx, changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, w.kind(t, w.SentryClient, false)), w.Client, nil)
	old, _, err := w.Client.CreateClientKey(ctx, apiclient.ProjectID(1))
	if err != nil {
		t.Fatal(err)
	}
	// Someone points a variable back at an integrated key the migration
	// recorded: that key must stay.
	keys, _, _ := w.Client.ListClientKeys(ctx, apiclient.ProjectID(1))
	_ = old
	if _, _, err := w.Client.CreateVariable(ctx, apiclient.ProjectID(1), apiclient.NewVariable{Key: "LEGACY_DSN", Value: keys[0].DSN, Raw: true}); err != nil {
		t.Fatal(err)
	}
	p := changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, w.kind(t, w.SentryClient, true))
	if it := changetest.ByPath(p)["demo/web-shop"]; it.Acts() || !strings.Contains(it.Skip, "LEGACY_DSN") {
		t.Fatalf("%+v", it)
	}
}

// A project with a hidden variable, which may hold a glet_ DSN errtrack
// cannot see, is migrated with its integrated tracking left on, and the
// plan and the report say why: its clients would stop reporting unseen.
func TestMigrationKeepsIntegratedOnWhileHiddenVariablesMayHoldItsDSN(t *testing.T) {
	w := newMigrationWorld(t)
	ctx := context.Background()
	ops, _, err := w.Client.GetProject(ctx, apiclient.ProjectRef{Path: "ops/api"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := change.PlanProjects(ctx, w.Client, []apiclient.Project{*ops}, w.kind(t, w.SentryClient, false))
	if err != nil || len(p.Items) != 1 || !strings.Contains(p.Items[0].Action, "integrated tracking left on") {
		t.Fatalf("%v: %+v", err, p.Items)
	}
	done := changetest.RunPlan(t, ctx, p, w.Client, nil)
	// How it is switched off is the front end's to say (Checks.SwitchOff).
	if it := done.Items[0]; it.Result != change.ResultChanged || !strings.Contains(it.Words, "integrated tracking stays on") ||
		!strings.Contains(it.Words, "; switch it off once they are checked") || strings.Contains(it.Words, "errtrack ") {
		t.Fatalf("%+v", it)
	}
	if s, _, err := w.Client.GetSettings(ctx, apiclient.ProjectID(ops.ID)); err != nil || !s.Active {
		t.Fatalf("integrated tracking switched off while a hidden variable may hold its DSN (%v)", err)
	}
}

// A test event the Sentry refuses stops the project before integrated
// tracking is switched off: its clients still report to GitLab, the
// variables already hold the Sentry DSN, and the run started again goes
// on from there, with the same Sentry project and key.
func TestMigrationStopsBeforeSwitchOffWhenTheEventIsRefused(t *testing.T) {
	w := newMigrationWorld(t)
	w.GitLab.MakeGroupOwner("demo", 1)
	ctx := context.Background()
	w.RefuseEvents.Store(true)
	first := changetest.RunPlan(t, ctx, changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, w.kind(t, w.SentryClient, false)), w.Client, nil)
	it := changetest.ByPath(first)["demo/web-shop"]
	if it.Result != change.ResultFailed || !strings.Contains(it.Words, "integrated tracking was left on") {
		t.Fatalf("%+v", it)
	}
	if s, _, err := w.Client.GetSettings(ctx, apiclient.ProjectID(1)); err != nil || !s.Active {
		t.Fatalf("integrated tracking switched off after a refused test event (%v)", err)
	}
	w.RefuseEvents.Store(false)
	made := w.Creates.Load()
	second := changetest.RunPlan(t, ctx, changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, w.kind(t, w.SentryClient, false)), w.Client, nil)
	if it := changetest.ByPath(second)["demo/web-shop"]; it.Result != change.ResultChanged || !migrationResultOf(it).GoesOn {
		t.Fatalf("%+v", it)
	}
	if w.Creates.Load() != made || len(w.Sentry.Keys("demo", "demo-web-shop")) != 1 {
		t.Fatalf("the run started again made another Sentry project or key: %d creates, keys %+v", w.Creates.Load()-made, w.Sentry.Keys("demo", "demo-web-shop"))
	}
	if s, _, err := w.Client.GetSettings(ctx, apiclient.ProjectID(1)); err != nil || s.Active {
		t.Fatalf("integrated tracking still on after the event was accepted (%v)", err)
	}
}

// A naming rule that sends two projects to one Sentry project stops both
// in the plan (their events would mix, their key be shared); a rule
// naming a placeholder there is none of is refused.
func TestMigrationTargetsNeverShared(t *testing.T) {
	w := newMigrationWorld(t)
	k := w.kind(t, w.SentryClient, false)
	k.Slug = func(projectscope.Project) string { return "shop" }
	p := changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, k)
	if p.Acting() != 0 || !strings.Contains(changetest.ByPath(p)["demo/web-shop"].Skip, "is also the target of") {
		t.Fatalf("%+v", changetest.ByPath(p)["demo/web-shop"])
	}
	for _, bad := range []string{"{bogus}", "{path", "Shop", "a b"} {
		if _, err := SlugRule(bad); err == nil {
			t.Errorf("rule %q taken", bad)
		}
	}
	for _, good := range []string{"", "{path_slug}", "{path}-prod", "shop"} {
		if _, err := SlugRule(good); err != nil {
			t.Errorf("rule %q refused: %v", good, err)
		}
	}
}

// Another errtrack process at the project (its claim held) stops this
// run's migration there before anything is made: two runs could each make
// the target's key.
func TestMigrationWaitsForAnotherRunAtTheProject(t *testing.T) {
	w := newMigrationWorld(t)
	other, err := ledger.OpenLedger(w.LedgerDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { other.Close() })
	release, err := other.Claim(ledger.ProjectClaim(flowtest.TestHost, 1))
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	done := changetest.RunPlan(t, context.Background(), changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, w.kind(t, w.SentryClient, false)), w.Client, nil)
	it := changetest.ByPath(done)["demo/web-shop"]
	var busy *rotation.BusyError
	if it.Result != change.ResultFailed || !errors.As(it.Err, &busy) || len(w.Sentry.Keys("demo", "demo-web-shop")) != 0 {
		t.Fatalf("%+v, keys %+v", it, w.Sentry.Keys("demo", "demo-web-shop"))
	}
}

// Two projects sent to one Sentry project are each stopped naming the
// other, not themselves; a third with a target of its own goes on.
func TestMigrationTwoProjectsSharingATarget(t *testing.T) {
	w := newMigrationWorld(t)
	w.GitLab.MakeGroupOwner("demo", 1)
	k := w.kind(t, w.SentryClient, false)
	k.Slug = func(p projectscope.Project) string {
		if p.Path == "demo/web-shop" || p.Path == "demo/mobile/ios" {
			return "shop"
		}
		return strings.ReplaceAll(p.Path, "/", "-")
	}
	p := changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, k)
	items := changetest.ByPath(p)
	for self, other := range map[string]string{"demo/web-shop": "demo/mobile/ios", "demo/mobile/ios": "demo/web-shop"} {
		it := items[self]
		if it.Result != change.ResultFailed || !strings.Contains(it.Skip, "is also the target of "+other+":") {
			t.Fatalf("%s: %+v", self, it)
		}
	}
	if p.Acting() == 0 {
		t.Fatalf("the projects with targets of their own were stopped too: %+v", p.Items)
	}
}

// A variable holding an integrated DSN of no key of the project (a deleted
// key's) is named in the plan as left as it is; a project with none has no
// such words.
func TestMigrationPlanNamesVariablesItLeaves(t *testing.T) {
	w := newMigrationWorld(t)
	w.GitLab.MakeGroupOwner("demo", 1)
	items := changetest.ByPath(changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, w.kind(t, w.SentryClient, false)))
	ios, web := items["demo/mobile/ios"], items["demo/web-shop"]
	if !ios.Acts() || !strings.Contains(ios.Action, "left, holding an integrated DSN of no key of this project") || !strings.Contains(ios.Action, "OLD_SENTRY_DSN") {
		t.Fatalf("ios: %+v", ios)
	}
	if !web.Acts() || strings.Contains(web.Action, "left, holding") {
		t.Fatalf("web-shop: %+v", web)
	}
}

// A Sentry project missing where none is to be made: the plan says how
// the front end makes it, in its own words, and no other front end's.
func TestMissingSentryProjectInTheFrontEndsWords(t *testing.T) {
	w := newMigrationWorld(t)
	k := w.kind(t, w.SentryClient, false)
	k.Create = false
	for how, want := range map[string]string{"": ": create it", "<its way>": ": create it, or <its way>"} {
		k.CreateHow = how
		it := changetest.PlanOne(t, w.Client, "demo/web-shop", k).Items[0]
		if it.Result != change.ResultSkipped || !strings.HasSuffix(it.Skip, want) || strings.Contains(it.Skip, "--") {
			t.Errorf("CreateHow %q: %+v", how, it)
		}
	}
}

// A project whose group's CI/CD variables the token cannot read (a 403
// for a Maintainer who is not the group's Owner) may have its glet_ DSN
// handed out there: its migration leaves integrated tracking on, the plan
// and the report name the group, and the later step keeps its keys.
func TestMigrationKeepsIntegratedOnWhileAGroupsVariablesAreUnread(t *testing.T) {
	w := newMigrationWorld(t)
	ctx := context.Background()
	p := changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, w.kind(t, w.SentryClient, false))
	it := changetest.ByPath(p)["demo/web-shop"]
	if !it.Acts() || !strings.Contains(it.Action, "integrated tracking left on") || !strings.Contains(it.Action, "group demo") {
		t.Fatalf("the plan does not say the group's variables are unread: %+v", it)
	}
	done := changetest.ByPath(changetest.RunPlan(t, ctx, p, w.Client, nil))["demo/web-shop"]
	if done.Result != change.ResultChanged || !strings.Contains(done.Words, "integrated tracking stays on") || !strings.Contains(done.Words, "group demo") {
		t.Fatalf("%+v", done)
	}
	if s, _, err := w.Client.GetSettings(ctx, apiclient.ProjectID(1)); err != nil || !s.Active {
		t.Fatalf("integrated tracking switched off while group demo's variables are unread (%v)", err)
	}
	keys := w.GitLab.KeyCount(1)
	later := changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, w.kind(t, w.SentryClient, true))
	if it := changetest.ByPath(later)["demo/web-shop"]; it.Acts() || !strings.Contains(it.Skip, "group demo") {
		t.Fatalf("the later step would delete keys a group variable may hand out: %+v", it)
	}
	changetest.RunPlan(t, ctx, later, w.Client, nil)
	if w.GitLab.KeyCount(1) != keys {
		t.Fatalf("%d glet_ keys left of %d", w.GitLab.KeyCount(1), keys)
	}
}
