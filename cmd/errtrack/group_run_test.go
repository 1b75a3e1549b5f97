package main

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// keys verify --group --json names the key a project's event went with as
// key_id alone: no old_key_id, as nothing was replaced; the table's KEYS
// column still names it.
func TestVerifyGroupJSONNamesOneKey(t *testing.T) {
	c := newCLI(t, nil)
	r := c.run("", "keys", "verify", "--group", "demo", "--include-subgroups", "--yes", "--json")
	var items []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &items); err != nil {
		t.Fatalf("%v\n%s%s", err, r.stdout, r.stderr)
	}
	sent := 0
	for _, it := range items {
		if it["result"] != "ok" {
			continue
		}
		sent++
		if _, ok := it["old_key_id"]; ok || it["key_id"] == nil {
			t.Errorf("%v: want key_id alone", it)
		}
	}
	if sent == 0 {
		t.Fatalf("no project's event was sent:\n%s%s", r.stdout, r.stderr)
	}
	table := c.run("", "keys", "verify", "--group", "demo", "--include-subgroups", "--yes")
	if !regexp.MustCompile(`(?m)^demo/web-shop\s+ok\s+1\s`).MatchString(table.stdout) {
		t.Errorf("the table's KEYS column lacks key 1:\n%s", table.stdout)
	}
}

// keys rotate --group: the plan first, a dry run changes nothing, --yes
// runs the rotation plan in each project and reports per project.
func TestGroupRotateCommand(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.env["ERRTRACK_STATE_DIR"] = t.TempDir()
	args := []string{"keys", "rotate", "--group", "demo", "--include-subgroups", "--ci-variable", "SENTRY_DSN", "--delete-with-unread-groups"}
	r := c.run("", append(args, "--dry-run")...)
	r.must(t, 0, "Group demo: 2 of 8 projects to rotate", "demo/mobile/ios", "rotate key 901", "demo/mobile/kiosk", "not a Maintainer", "no CI/CD variable SENTRY_DSN", "Dry run: nothing was changed")
	if c.server.Keys(7)[0].ID != 901 || c.server.KeyCount(1) != 2 {
		t.Fatal("the dry run changed something")
	}
	c.run("", args...).must(t, 2, "pass --yes")
	r = c.run("", append(args, "--yes", "--json")...)
	r.must(t, 0, "[1/2]", "[2/2]")
	var report []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil {
		t.Fatal(err, r.stdout)
	}
	changed := 0
	for _, x := range report {
		if x["result"] == "changed" {
			changed++
		}
	}
	if changed != 2 || strings.Contains(r.stdout, "glet_") {
		t.Fatalf("report %s", r.stdout)
	}
	if c.server.KeyCount(7) != 1 || c.server.Keys(7)[0].ID == 901 {
		t.Fatalf("project 7 keys %v", c.server.Keys(7))
	}
	c.run("", "keys", "rotate", "--group", "demo", "--yes", "--delete-with-unread-groups").must(t, 2, "--ci-variable")
	c.run("", "keys", "rotate", "--group", "demo", "-p", "1", "--ci-variable", "X", "--yes", "--delete-with-unread-groups").must(t, 2, "not both")
}

// Interrupted mid-group (every DELETE answered 503), the same command run
// again ends with exactly one new key per rotated project.
func TestGroupRotateResumes(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{})
	failing := true
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if failing && r.Method == http.MethodDelete {
			w.WriteHeader(503)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	c.server = srv
	c.env["ERRTRACK_STATE_DIR"] = t.TempDir()
	args := []string{"keys", "rotate", "--group", "demo", "--include-subgroups", "--ci-variable", "SENTRY_DSN", "--yes", "--delete-with-unread-groups"}
	c.run("", args...).must(t, 1, "2 of 8 projects failed", "Run the same command again")
	failing = false
	c.run("", args...).must(t, 0, "earlier run left 2 projects unfinished", "go on with key")
	if srv.KeyCount(7) != 1 || srv.KeyCount(1) != 2 {
		t.Fatalf("keys: 7 %v, 1 %v", srv.Keys(7), srv.Keys(1))
	}
}

// The journal is one per host and variable, not per group: a rotation of
// the group interrupted goes on in a rotation of its subgroup (as in the
// console's rotation of marked projects), which counts only its own
// projects as unfinished and never gives one a second new key.
func TestGroupRotateResumesFromAnotherScope(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{})
	failing := true
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if failing && r.Method == http.MethodDelete {
			w.WriteHeader(503)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	c.server = srv
	c.env["ERRTRACK_STATE_DIR"] = t.TempDir()
	c.run("", "keys", "rotate", "--group", "demo", "--include-subgroups", "--ci-variable", "SENTRY_DSN", "--yes", "--delete-with-unread-groups").must(t, 1, "2 of 8 projects failed")
	failing = false
	c.run("", "keys", "rotate", "--group", "demo/mobile", "--ci-variable", "SENTRY_DSN", "--yes", "--delete-with-unread-groups").must(t, 0, "earlier run left 1 project unfinished", "go on with key")
	if srv.KeyCount(7) != 1 || srv.Keys(7)[0].ID == 901 {
		t.Fatalf("ios keys %v", srv.Keys(7))
	}
	c.run("", "keys", "rotate", "--group", "demo", "--ci-variable", "SENTRY_DSN", "--yes", "--delete-with-unread-groups").must(t, 0, "earlier run left 1 project unfinished", "go on with key")
	if srv.KeyCount(1) != 2 || slices.Contains([]int64{srv.Keys(1)[0].ID, srv.Keys(1)[1].ID}, 1) {
		t.Fatalf("web-shop keys %v", srv.Keys(1))
	}
}

// A group rotation stopped by a group variable says how to go on (rotate
// the project on its own, which keeps the old key; never --keep-variables,
// which deletes a key the variable still hands out), and the project's new key shows
// in the report of the run that finishes it; the other projects are not
// rotated again meanwhile.
func TestGroupRotateStoppedByGroupVariable(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{ScaleGroup: 3})
	c := newCLI(t, srv)
	c.server = srv
	c.env["ERRTRACK_STATE_DIR"] = t.TempDir()
	args := []string{"keys", "rotate", "--group", "fleet", "--ci-variable", "SENTRY_DSN", "--yes", "--delete-with-unread-groups"}
	first := c.run("", args...)
	first.must(t, 1, "fleet/app-001  skip: the old DSN is held by the CI/CD variable FLEET_SENTRY_DSN",
		"rotate it on its own ('errtrack keys rotate -p fleet/app-001 --yes'): the old key stays until the group's variables hold the new DSN", "nothing was changed here", "1 of 3 projects failed")
	if strings.Contains(first.stdout+first.stderr, "--keep-variables") {
		t.Fatalf("the advice offers to delete a key the group's variable still hands out:\n%s", first.stdout)
	}
	if srv.KeyCount(2001) != 1 {
		t.Fatal("a key was made in the project the plan stopped")
	}
	r := c.run("", append(args, "--dry-run")...)
	r.must(t, 1, "2 projects rotated by an earlier run of this group rotation")
	c.run("", append(args, "--keep-variables", "--json")...).must(t, 0, `"result": "unchanged"`, `"new_key_id"`)
	for id := int64(2001); id <= 2003; id++ {
		if keys := srv.Keys(id); len(keys) != 1 || keys[0].ID > 100 {
			t.Fatalf("project %d keys %v", id, keys)
		}
	}
}

// --restart starts a new rotation: the projects an unfinished run rotated
// are rotated again; without it they are left alone.
func TestGroupRotateRestart(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{ScaleGroup: 3})
	c := newCLI(t, srv)
	c.server = srv
	c.env["ERRTRACK_STATE_DIR"] = t.TempDir()
	args := []string{"keys", "rotate", "--group", "fleet", "--ci-variable", "SENTRY_DSN", "--yes", "--delete-with-unread-groups"}
	// app-001 fails (a group variable holds its old DSN): the others are
	// rotated, the rotation stays open.
	c.run("", args...).must(t, 1, "fleet/app-001  skip: the old DSN is held by the CI/CD variable")
	c.run("", append(args, "--dry-run")...).must(t, 1, "2 projects rotated by an earlier run of this group rotation")
	c.run("", append(args, "--dry-run", "--restart")...).must(t, 2, "--restart forgets what earlier runs did")
	c.run("", "keys", "rotate", "-p", "fleet/app-002", "--ci-variable", "SENTRY_DSN", "--dry-run", "--yes", "--delete-with-unread-groups").must(t, 2, "go with --group")
	before := srv.Keys(2002)[0].ID
	c.run("", append(args, "--restart", "--keep-variables")...).must(t, 0, "fleet/app-002: changed")
	if keys := srv.Keys(2002); len(keys) != 1 || keys[0].ID == before {
		t.Fatalf("app-002 keys %v, was %d", keys, before)
	}
	if keys := srv.Keys(2001); len(keys) != 1 || keys[0].ID == 200001 {
		t.Fatalf("app-001 keys %v", keys)
	}
}

// A project an open group rotation set out to rotate, and a later run no
// longer reaches (it runs in a subgroup), is named by that run even when
// the run fails elsewhere: the user learns why the rotation stays open.
func TestGroupRotateNamesUnreachedProjectsWhenItFails(t *testing.T) {
	srv, _ := mockserver.New(mockserver.Options{})
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			w.WriteHeader(503)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	c.server = srv
	c.env["ERRTRACK_STATE_DIR"] = t.TempDir()
	c.run("", "keys", "rotate", "--group", "demo", "--include-subgroups", "--ci-variable", "SENTRY_DSN", "--yes", "--delete-with-unread-groups").must(t, 1, "2 of 8 projects failed")
	c.run("", "keys", "rotate", "--group", "demo/mobile", "--ci-variable", "SENTRY_DSN", "--yes", "--delete-with-unread-groups").must(t, 1, "1 of 3 projects failed", "does not reach (project ID 1)")
}
