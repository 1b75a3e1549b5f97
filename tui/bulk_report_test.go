package tui

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/migrate"
	"github.com/errtrack/errtrack/internal/rotation"
)

// A project that fails is reported as failed, and only it stays marked;
// the others' changes are made.
func TestBulkFailureReported(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	h := newHarness(t, Deps{API: f, Host: g.url})
	h.filter("mobile-app")
	h.key("space", "esc")
	h.filter("paused")
	h.key("space", "esc")
	f.fail("UpdateSettings", errServer502)
	h.key("ctrl+o", "e", "y")
	h.mustSay("Enabling error tracking: 1 of 2 projects failed", "failed demo/paused", "changed demo/mobile-app")
	if s := settingsOf(t, g, 2); s == nil || !s.Active || settingsOf(t, g, 5).Active {
		t.Fatal("the results are not the report's")
	}
	h.key("esc")
	h.mustSee("1 marked", "● demo/paused", "(ctrl+o then o on the projects list")
	h.mustNotSee("● demo/mobile-app")
	h.key("ctrl+o", "o")
	h.mustSay("Enabling error tracking: 1 of 2 projects failed")
}

// A fleet's rotation says each project's end; a project whose old DSN a
// group variable also holds is a stop the plan shows (no key made there);
// quitting mid-run names the projects changed, under way and not reached.
func TestBulkRotationOfAFleet(t *testing.T) {
	g := newGitLab(t, mockserver.Options{ScaleGroup: 5}, mockserver.TokenMaintainer)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "fleet"})
	h.mustSee("Projects of group fleet", "fleet/app-005", "(5)")
	h.mustNotSee("demo/")
	h.key("ctrl+a", "ctrl+o", "r", "enter")
	h.mustSay("in 4 of 5 marked projects?", "failed fleet/app-001 the old DSN is held by the CI/CD variable FLEET_SENTRY_DSN")
	h.runQueued(h.confirmRun())
	h.stepUntil("Rotating 1/4")
	for len(h.m.sh.bulk.running) < 2 {
		h.step()
	}
	n := h.m.BulkQuitNote()
	for _, want := range []string{"It had changed 1 project", "It was at 2 projects", "It had not reached 1 project", "It had failed in 1 project (fleet/app-001)", "goes on with the keys under way"} {
		if !strings.Contains(n, want) {
			t.Fatalf("on quitting: %q lacks %q", n, want)
		}
	}
	for len(h.m.sh.bulk.events) > 1 {
		h.step()
	}
	h.send(<-h.m.sh.bulk.events)
	h.dialogSays("Rotating the keys SENTRY_DSN holds: 1 of 5 projects failed",
		"failed fleet/app-001 the old DSN is held by the CI/CD variable FLEET_SENTRY_DSN",
		"rotate it on its own (open the project, R): the old key stays until the group's variables hold the new DSN")
	if n := h.m.BulkQuitNote(); n != "" {
		t.Fatalf("a finished run says %q on quitting", n)
	}
	if keys := g.srv.Keys(2001); len(keys) != 1 || keys[0].ID != 200001 {
		t.Fatalf("a key was made in the project the plan stopped: %+v", keys)
	}
	for id := int64(2002); id <= 2005; id++ {
		if keys := g.srv.Keys(id); len(keys) != 1 || keys[0].ID == 200000+id-2000 {
			t.Fatalf("project %d keys %+v", id, keys)
		}
	}
}

// Another variable of the project holding the old DSN stops its rotation
// before the old key goes, as the group command does without its flags;
// the report says how to choose in the console, not which flag to pass.
func TestBulkRotationLeavesOtherVariables(t *testing.T) {
	g := demoGitLab(t)
	ctx := context.Background()
	old := g.srv.Keys(1)[0]
	k, _, _, err := g.api.FindClientKey(ctx, apiclient.ProjectID(1), old.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := g.api.CreateVariable(ctx, apiclient.ProjectID(1), apiclient.NewVariable{Key: "DEPLOY_DSN", Value: k.DSN, Raw: true}); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, Deps{API: g.api, Host: g.url})
	h.filter("web-shop")
	h.key("space", "ctrl+o", "r", "enter")
	h.dialogSays("nothing to do", "failed demo/web-shop CI/CD variable DEPLOY_DSN (all environments) holds the old DSN too: open the project and rotate it there (R) to choose what they get. Nothing was changed here.")
	h.dialogLacks("--keep-variables")
	if ids := g.keyIDs(1); !slices.Contains(ids, 1) || len(ids) != 2 {
		t.Fatalf("web-shop keys %v: the plan's stop makes no key", ids)
	}
}

// A bulk change that ends while one of its projects is open shows there:
// the enabled settings at once, the first client key a create made.
func TestBulkChangeReachesTheOpenProject(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url})
	h.mustSee("demo/mobile-app")
	for _, p := range []string{"paused", "mobile-app"} {
		h.filter(p)
		h.key("space", "esc")
	}
	h.key("ctrl+o", "e")
	h.mustSay("Enable error tracking in 2 of 2 marked projects?")
	h.advance(gracePeriod)
	starts := h.collect(h.sendOnly(keyMsg("y")))
	// The run starts once paused is open, as it was before the change.
	h.filter("paused")
	h.key("enter")
	h.mustSee("Settings (inactive)")
	for _, start := range starts {
		h.send(start)
	}
	h.key("esc") // the report
	h.mustSee("Settings (active)")
	if s := settingsOf(t, g, 5); s == nil || !s.Active {
		t.Fatal("paused was not enabled")
	}
	h.key("esc")
	h.filter("mobile-app")
	h.key("enter")
	h.mustSee("Settings (active)", "Client keys (1)")
}

// What a bulk change's project tells the screens showing it follows its
// kind of change: a failed test event with a Sentry key (no ID) changed
// nothing, where it was once taken for a settings change whose answer was
// lost; a settings change failed may have changed them; a migration moved
// keys and settings.
func TestBulkChangesByKind(t *testing.T) {
	sentryKey := apiclient.ClientKey{PublicKey: "0a1b2c3d4e5f60718293a4b5c6d7e8f9", Name: "Production"}
	s := &apiclient.Settings{Active: true}
	for name, c := range map[string]struct {
		it   change.Item
		want changes
	}{
		"refused Sentry test event": {change.Item{Action: "send", Result: change.ResultFailed,
			Detail: change.VerifyResult{Key: sentryKey}}, changes{}},
		"settings failed": {change.Item{Action: "enable", Result: change.ResultFailed,
			Detail: change.SettingsResult{}}, changes{settingsStale: true, stale: true}},
		"settings created": {change.Item{Action: "create", Result: change.ResultChanged,
			Detail: change.SettingsResult{Creates: true, Settings: s}}, changes{settings: s, stale: true}},
		"rotation not reached": {change.Item{Action: "rotate", Result: change.ResultNotReached,
			Detail: change.RotationResult{Rotation: &rotation.Rotation{}}}, changes{}},
		"rotation changed": {change.Item{Action: "rotate", Result: change.ResultChanged,
			Detail: change.RotationResult{Rotation: &rotation.Rotation{}}}, changes{stale: true}},
		"migration changed": {change.Item{Action: "migrate", Result: change.ResultChanged,
			Detail: migrate.MigrationResult{Key: sentryKey}}, changes{settingsStale: true, stale: true}},
	} {
		got := bulkChanges(c.it)
		if got.stale != c.want.stale || got.settingsStale != c.want.settingsStale || got.settings != c.want.settings {
			t.Errorf("%s: got %+v, want %+v", name, got, c.want)
		}
	}
}

// A group rotation left open over the group (two projects failed), then
// run from a subgroup that no longer reaches demo/web-shop: the report
// names the project the open rotation recorded and this run does not
// reach, even though the run failed too.
func TestBulkReportNamesProjectsNotReached(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	led := testRotations(t, g.url)
	f.fail("DeleteClientKey", errServer502)
	f.fail("DeleteClientKey", errServer502)
	whole := newHarness(t, Deps{API: f, Host: g.url, Group: "demo", Subgroups: true, Rotations: led})
	whole.key("ctrl+a", "ctrl+o", "r", "enter", "y", "y")
	whole.mustSay("2 of 7 projects failed")
	f.fail("DeleteClientKey", errServer502)
	sub := newHarness(t, Deps{API: f, Host: g.url, Group: "demo/mobile", Rotations: led})
	sub.key("ctrl+a", "ctrl+o", "r", "enter", "y", "y")
	sub.mustSay("1 of 2 projects failed")
	sub.dialogSays("this run does not reach (project ID 1)")
}

// A lost create the project's keys cannot resolve (two keys made since):
// the report says to look at the Client keys tab and restart with R, then
// m, in the console's keys; no command line.
func TestBulkUnknownCreateNamesTheConsolesKeys(t *testing.T) {
	g := demoGitLab(t)
	store, err := ledger.OpenLedger(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	rec := ledger.Record{Kind: ledger.KindRotation, ID: "r-lost", Host: g.url, ProjectID: 7, OldKeyID: 901, FrontEnd: rotation.FrontEndConsoleBulk,
		Named: &ledger.Variable{Key: "SENTRY_DSN", Scope: "*"}, Phase: ledger.PhaseCreating, Before: []string{"901"}, BeforeMax: 901, BeforeComplete: true, Started: time.Now()}
	if err := store.Append(rec, true); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, _, err := g.api.CreateClientKey(t.Context(), apiclient.ProjectID(7)); err != nil {
			t.Fatal(err)
		}
	}
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "demo/mobile", Rotations: rotation.NewRotations(store, g.url, rotation.FrontEndConsole)})
	h.key("ctrl+a", "ctrl+o", "r", "enter", "down", "enter") // the failed row, shown whole
	h.mustSay("may have created a key", "Check the project's keys (open the project: its Client keys tab lists them)",
		"then restart the rotation (R on the old key, then m (make a new key) at its question)")
	h.mustNotSee("errtrack", "--restart")
}
