package main

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

// The demo group's migration from the command line, interrupted (Ctrl+C)
// when the first project's integrated tracking is switched off and run
// again: every integrated project ends with its SENTRY_DSN on the DSN of
// its one Sentry project's one key, which took a test event, integrated
// tracking off, no Sentry project made twice, and its glet_ keys in place
// until --delete-old-keys removes them.
func TestMigrateCommandInterruptedAndResumed(t *testing.T) {
	t.Parallel()
	var ss *mocksentry.Server
	var creates atomic.Int32
	sentrySrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/api/0/teams/") {
			creates.Add(1)
		}
		ss.ServeHTTP(w, r)
	}))
	t.Cleanup(sentrySrv.Close)
	ss = mocksentry.New(mocksentry.Options{PublicURL: sentrySrv.URL})
	gl, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var c *cli
	var interrupted atomic.Bool
	c = newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gl.ServeHTTP(w, r)
		if r.Method == http.MethodPatch && strings.HasSuffix(r.URL.Path, "/error_tracking/settings") && interrupted.CompareAndSwap(false, true) {
			c.signals <- os.Interrupt
		}
	}))
	c.server = gl
	// The demo user owns the group demo here, so its variables are read:
	// a group whose variables are unread keeps integrated tracking on.
	gl.MakeGroupOwner("demo", 1)
	c.env["SENTRY_AUTH_TOKEN"] = mocksentry.TokenAdmin
	c.env["SENTRY_URL"] = sentrySrv.URL
	// The integrated projects the demo user maintains (two with SENTRY_DSN
	// holding a glet_ DSN), their targets, and the keys they had.
	integrated := map[int64]string{1: "demo-web-shop", 7: "demo-mobile-ios", 5: "demo-paused", 8: "demo-mobile-android"}
	before := map[int64]int{}
	for id := range integrated {
		before[id] = gl.KeyCount(id)
	}
	args := []string{"migrate", "--to", sentrySrv.URL, "--org", "demo", "--group", "demo", "--include-subgroups", "--create", "--team", "backend", "--yes"}

	c.run("", append(args, "--dry-run")...).must(t, 0, "4 of 8 projects to migrate", "pointing SENTRY_DSN (all environments) at the Sentry DSN", "Dry run")
	if creates.Load() != 0 {
		t.Fatal("the dry run created a Sentry project")
	}
	first := c.run("", args...)
	if first.code == 0 || !interrupted.Load() {
		t.Fatalf("the first run was not interrupted: exit %d\n%s\n%s", first.code, first.stdout, first.stderr)
	}
	c.run("", args...).must(t, 0)
	if n := int(creates.Load()); n != len(integrated) {
		t.Fatalf("%d Sentry projects created for %d projects", n, len(integrated))
	}
	gc, _ := apiclient.New(c.url, mockserver.TokenMaintainer)
	for id, slug := range integrated {
		keys := ss.Keys("demo", slug)
		if len(keys) != 1 || ss.Events(keys[0].Public) == 0 {
			t.Fatalf("%s: keys %+v", slug, keys)
		}
		for _, v := range gl.Variables(id) {
			if v.Key == "SENTRY_DSN" && !strings.Contains(v.Value, keys[0].Public) {
				t.Fatalf("project %d's SENTRY_DSN holds %q", id, v.Value)
			}
		}
		if s, _, err := gc.GetSettings(context.Background(), apiclient.ProjectID(id)); err != nil || s.Active {
			t.Fatalf("project %d: integrated tracking still on (%v)", id, err)
		}
		if gl.KeyCount(id) != before[id] {
			t.Fatalf("project %d: %d glet_ keys, had %d: deleted before --delete-old-keys", id, gl.KeyCount(id), before[id])
		}
	}
	r := c.run("", "rotations", "--json", "--group", "demo")
	r.must(t, 0, `"kind": "migration"`, `"phase": "migrated"`, "--delete-old-keys")
	if strings.Contains(r.stdout, "glet_") || strings.Contains(r.stdout, "://") && strings.Contains(r.stdout, "@") {
		t.Fatalf("the ledger shows a DSN: %s", r.stdout)
	}

	// The next plan says where GitLab's own Sentry settings are set: the
	// page, on the host.
	c.run("", append(args, "--dry-run")...).must(t, 0, c.url+"/demo/web-shop/-/settings/operations")
	dayAfter(t, c, ss)
	c.run("", append(args, "--delete-old-keys")...).must(t, 0)
	dayAfter(t, c, ss)
	for id := range integrated {
		if n := gl.KeyCount(id); n != 0 {
			t.Fatalf("project %d keeps %d glet_ keys after --delete-old-keys", id, n)
		}
	}
	c.run("", "rotations", "--group", "demo").must(t, 0, "→ "+sentrySrv.URL, "finished", "demo-maintainer, migrate")
}

// A team that does not exist is said in the dry run's plan, before
// anything runs, and nothing is made; a --mapping value that slugifies
// to nothing is refused before anything is read.
func TestMigrateDryRunChecksTheTeam(t *testing.T) {
	var creates atomic.Int32
	var ss *mocksentry.Server
	sentrySrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			creates.Add(1)
		}
		ss.ServeHTTP(w, r)
	}))
	t.Cleanup(sentrySrv.Close)
	ss = mocksentry.New(mocksentry.Options{PublicURL: sentrySrv.URL})
	gl, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, gl)
	c.server = gl
	c.env["SENTRY_AUTH_TOKEN"] = mocksentry.TokenAdmin
	c.env["SENTRY_URL"] = sentrySrv.URL
	c.run("", "migrate", "--to", sentrySrv.URL, "--org", "demo", "-p", "demo/web-shop", "--create", "--team", "no-such-team", "--dry-run").
		must(t, 1, "the team no-such-team does not exist in the Sentry organisation demo", "Dry run: nothing was changed")
	if creates.Load() != 0 {
		t.Fatal("the dry run made something")
	}
	mapping := filepath.Join(t.TempDir(), "mapping.yaml")
	if err := os.WriteFile(mapping, []byte("demo/web-shop: \"!!!\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := c.run("", "migrate", "--to", sentrySrv.URL, "--org", "demo", "-p", "demo/web-shop", "--mapping", mapping, "--dry-run")
	if r.code == 0 || !strings.Contains(r.stderr, "no Sentry slug") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// dayAfter: doctor names the Sentry project demo/web-shop reports to,
// checks its key, its variable and a test event through it, names
// GitLab's settings page, and never advises turning integrated tracking
// on or making a glet_ key.
func dayAfter(t *testing.T, c *cli, ss *mocksentry.Server) {
	t.Helper()
	key := ss.Keys("demo", "demo-web-shop")[0]
	events := ss.Events(key.Public)
	r := c.run("", "doctor", "-p", "demo/web-shop", "--send-test-event")
	r.must(t, 0, "migrated to Sentry project demo/demo-web-shop", c.url+"/demo/web-shop/-/settings/operations",
		"Sentry key", "1 variable holds the Sentry DSN", "accepted a test event")
	for _, bad := range []string{"settings enable", "keys create", "errtrack keys rotate"} {
		if strings.Contains(r.stdout+r.stderr, bad) {
			t.Fatalf("doctor advises %q:\n%s", bad, r.stdout)
		}
	}
	if ss.Events(key.Public) != events+1 {
		t.Fatal("no test event through the Sentry DSN")
	}
	// projects list names the Sentry project it reports to.
	c.run("", "projects", "list", "--group", "demo").must(t, 0, "Sentry demo/demo-web-shop (migrated)")
	c.run("", "projects", "list", "--group", "demo", "--json").must(t, 0, `"sentry_project": "demo/demo-web-shop"`, `"sentry_url": "http://127.0.0.1`)
}

// --mapping names projects as GitLab does, whatever their case: a path
// written Demo/Web-Shop maps demo/web-shop, never silently falling back to
// the default slug. A path named twice, in two cases with two slugs, is
// refused before anything is planned.
func TestMigrateMappingIgnoresCase(t *testing.T) {
	ss := mocksentry.New(mocksentry.Options{})
	sentrySrv := httptest.NewServer(ss)
	t.Cleanup(sentrySrv.Close)
	c := newCLI(t, nil)
	c.env["SENTRY_AUTH_TOKEN"] = mocksentry.TokenAdmin
	c.env["SENTRY_URL"] = sentrySrv.URL
	mapping := filepath.Join(t.TempDir(), "mapping.yaml")
	if err := os.WriteFile(mapping, []byte("Demo/Web-Shop: shop-errors\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"migrate", "--to", sentrySrv.URL, "--org", "demo", "-p", "demo/web-shop", "--create", "--team", "backend", "--mapping", mapping, "--dry-run"}
	c.run("", args...).must(t, 0, "demo/shop-errors")
	if err := os.WriteFile(mapping, []byte("Demo/Web-Shop: shop-errors\ndemo/web-shop: web\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c.run("", args...).must(t, 2, "demo/web-shop", "twice")
}

// The report of a migration says on stdout what was made, the Sentry
// project and its key, not only that a test event was accepted; --json
// holds them too.
func TestMigrateReportNamesWhatWasMade(t *testing.T) {
	ss := mocksentry.New(mocksentry.Options{})
	sentrySrv := httptest.NewServer(ss)
	t.Cleanup(sentrySrv.Close)
	gl, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, gl)
	c.server = gl
	gl.MakeGroupOwner("demo", 1)
	c.env["SENTRY_AUTH_TOKEN"] = mocksentry.TokenAdmin
	c.env["SENTRY_URL"] = sentrySrv.URL
	c.env["COLUMNS"] = "200"
	r := c.run("", "migrate", "--to", sentrySrv.URL, "--org", "demo", "-p", "demo/web-shop", "--create", "--team", "backend", "--yes")
	r.must(t, 0)
	keys := ss.Keys("demo", "demo-web-shop")
	if len(keys) != 1 {
		t.Fatalf("keys %+v", keys)
	}
	var row string
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(l, "demo/web-shop") {
			row = l
		}
	}
	if !strings.Contains(row, keys[0].Public[:9]) || !strings.Contains(row, "Sentry project demo/demo-web-shop") {
		t.Fatalf("the report's row does not name the Sentry project and key %s:\n%s", keys[0].Public, r.stdout)
	}
	j := c.run("", "migrate", "--to", sentrySrv.URL, "--org", "demo", "-p", "demo/paused", "--create", "--team", "backend", "--yes", "--json")
	var items []groupItemJSON
	if err := json.Unmarshal([]byte(j.stdout), &items); err != nil || len(items) != 1 {
		t.Fatalf("%v: %s", err, j.stdout)
	}
	made := ss.Keys("demo", "demo-paused")
	if x := items[0]; len(made) != 1 || x.SentryKey == nil || x.SentryKey.PublicKey != made[0].Public || !strings.Contains(x.Words, "Sentry project demo/demo-paused") {
		t.Fatalf("the --json report does not name what was made (%+v):\n%s", made, j.stdout)
	}
}
