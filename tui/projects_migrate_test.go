package tui

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/migrate"
	"github.com/errtrack/errtrack/internal/rotation"
)

// Marked projects migrate to a Sentry from the bulk menu: the Sentry and
// the organisation/team asked (the offered ones taken with enter), the
// plan shown and asked once, then each project's SENTRY_DSN holds its
// Sentry project's key's DSN, which took a test event; the report says
// how the later step runs from here, and that step deletes the glet_ keys.
func TestBulkMigration(t *testing.T) {
	g := demoGitLab(t)
	// The group's variables read (its Owner), so the later step may go.
	g.srv.MakeGroupOwner("demo", 1)
	ss := mocksentry.New(mocksentry.Options{})
	ts := httptest.NewServer(ss)
	t.Cleanup(ts.Close)
	var asked []MigrateTarget
	migration := func(ctx context.Context, to MigrateTarget, led *rotation.Rotations) (change.Kind, error) {
		asked = append(asked, to)
		sc, err := sentry.New(to.URL, mocksentry.TokenAdmin)
		if err != nil {
			return nil, err
		}
		info, err := sc.CheckToken(ctx)
		if err != nil {
			return nil, err
		}
		rule, _ := migrate.SlugRule("")
		return migrate.MigrateChange{Sentry: sc, Base: to.URL, Org: to.Org, Team: to.Team, Create: to.Team != "", Slug: rule,
			DeleteOldKeys: to.DeleteOldKeys, Token: info, Ledger: led}, nil
	}
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "demo", Rotations: testRotations(t, g.url),
		Migration: migration, MigrateTo: MigrateTarget{URL: ts.URL, Org: "demo", Team: "backend"}})
	h.filter("web-shop")
	h.key("space", "esc", "ctrl+o")
	h.mustSay("m migrate to a Sentry")
	h.key("m")
	h.mustSee("Sentry: " + ts.URL)
	h.key("enter")
	h.mustSee("Organisation: demo/backend")
	h.key("enter")
	h.mustSay("Migrate to the Sentry at "+ts.URL+" in 1 of 1 marked", "TARGET CHANGES THEN",
		"planned demo/web-shop demo/demo-web-shop (new) SENTRY_DSN → Sentry DSN integrated off")
	// enter on a row shows it whole; esc goes back to the question
	h.key("down", "enter")
	h.mustSay("demo/web-shop: planned", "to a new Sentry project demo/demo-web-shop (team backend)")
	h.key("esc")
	h.mustSay("Migrate to the Sentry at " + ts.URL)
	h.key("y")
	h.mustSay("done in 1 project", "changed demo/web-shop Migrated to Sentry project demo/demo-web-shop")
	h.dialogSays("then go with the later step (x in the ctrl+o menu of the marked projects)")
	// the report's row whole on enter
	h.key("down", "enter")
	h.mustSay("then go with the later step (x in the ctrl+o menu of the marked projects)")
	h.key("esc")
	keys := ss.Keys("demo", "demo-web-shop")
	if len(keys) != 1 || ss.Events(keys[0].Public) != 1 {
		t.Fatalf("Sentry keys %+v", keys)
	}
	for _, v := range g.srv.Variables(1) {
		if v.Key == "SENTRY_DSN" && !strings.Contains(v.Value, keys[0].Public) {
			t.Fatalf("SENTRY_DSN holds %q", v.Value)
		}
	}
	if g.srv.KeyCount(1) != 2 {
		t.Fatal("the glet_ keys went before the later step")
	}
	// The project says it was migrated, and does not advise turning its
	// integrated tracking on again.
	h.key("esc")
	h.filter("web-shop")
	h.mustSee("Sentry demo/demo-web-shop")
	h.mustNotSee("integrated · off")
	h.key("enter")
	h.mustSee("Client keys (")
	h.mustSay("Migrated to the Sentry project", "x in the ctrl+o menu of the marked projects deletes them")
	h.mustNotSee("until it is enabled")
	// Its glet_ keys are not made or rotated any more: not offered, and
	// n says where its keys are.
	h.mustNotSee("n new", "R rotate")
	h.key("n")
	h.mustSay("migrated to the Sentry project demo/demo-web-shop at " + ts.URL)
	if g.srv.KeyCount(1) != 2 {
		t.Fatal("n made a glet_ key in a migrated project")
	}
	// The Settings tab names the Sentry project and GitLab's page where
	// the Sentry is named; it does not offer integrated tracking again.
	h.key("tab")
	h.mustSay("Migrated to the Sentry project demo/demo-web-shop at "+ts.URL, "/demo/web-shop/-/settings/operations")
	h.mustNotSee("a enable", "use integrated")
	h.key("tab")
	// Its doctor checks the Sentry side and never advises turning
	// integrated tracking on or making a glet_ key.
	h.key("D")
	h.mustSay("migration: migrated to Sentry project demo/demo-web-shop", "/demo/web-shop/-/settings/operations")
	h.mustNotSee("on the Settings tab", "on the Client keys tab")
	h.key("esc")
	h.key("esc")
	// The later step, with the Sentry offered again.
	h.key("esc")
	h.filter("web-shop")
	h.key("space", "esc", "ctrl+o", "x")
	h.mustSee("Sentry: " + ts.URL)
	h.key("enter", "enter")
	h.mustSay("planned demo/web-shop")
	h.key("y")
	h.mustSay("done in 1 project")
	if g.srv.KeyCount(1) != 0 || len(asked) != 2 || !asked[1].DeleteOldKeys {
		t.Fatalf("%d glet_ keys left; asked %+v", g.srv.KeyCount(1), asked)
	}
	// After the later step the keys tab still names the Sentry project,
	// and does not offer to create a glet_ key.
	h.key("enter", "esc")
	h.filter("web-shop")
	h.key("enter")
	h.mustSay("No integrated client keys: the project reports to the Sentry project demo/demo-web-shop", "its integrated keys were deleted")
	h.mustNotSee("n new", "Press n")
	// Its doctor, after the later step too, checks the Sentry side and
	// never advises turning integrated tracking on or making a glet_ key.
	h.key("D")
	h.mustSay("migration: migrated to Sentry project demo/demo-web-shop", "/demo/web-shop/-/settings/operations")
	h.mustNotSee("on the Settings tab", "on the Client keys tab")
}

// A project whose hidden variable may hold its glet_ DSN keeps integrated
// tracking on after its migration: the report says how to switch it off
// with the console's key, not the commands'.
func TestBulkMigrationSaysHowToSwitchOffInTheConsole(t *testing.T) {
	g := demoGitLab(t)
	ts := httptest.NewServer(mocksentry.New(mocksentry.Options{}))
	t.Cleanup(ts.Close)
	migration := func(ctx context.Context, to MigrateTarget, led *rotation.Rotations) (change.Kind, error) {
		sc, err := sentry.New(to.URL, mocksentry.TokenAdmin)
		if err != nil {
			return nil, err
		}
		info, err := sc.CheckToken(ctx)
		if err != nil {
			return nil, err
		}
		rule, _ := migrate.SlugRule("")
		return migrate.MigrateChange{Sentry: sc, Base: to.URL, Org: to.Org, Team: to.Team, Create: true, Slug: rule, Token: info, Ledger: led}, nil
	}
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "ops", Rotations: testRotations(t, g.url),
		Migration: migration, MigrateTo: MigrateTarget{URL: ts.URL, Org: "demo", Team: "backend"}})
	h.filter("ops/api")
	h.key("space", "esc", "ctrl+o", "m", "enter", "enter", "y")
	h.mustSay("done in 1 project")
	h.dialogSays("integrated tracking stays on", "switch it off (a on the project's Settings tab) once they are checked")
	h.mustNotSee("errtrack settings")
}
