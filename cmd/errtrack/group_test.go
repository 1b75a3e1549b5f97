package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

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

// settings enable --group creates integrated settings where there are
// none, enables disabled ones, leaves Sentry-backed ones on Sentry, and
// skips what the user does not maintain; a dry run changes nothing.
func TestGroupSettingsEnable(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	args := []string{"settings", "enable", "--group", "demo", "--include-subgroups"}
	c.run("", append(args, "--dry-run")...).must(t, 0, "demo/mobile-app", "create integrated settings, enabled", "demo/paused", "demo/mobile/android", "already enabled", "not a Maintainer", "Dry run")
	c.run("", "settings", "get", "-p", "5").must(t, 0, "Active:        no")
	// demo/on-prem has no integrated error tracking to create (the flag is
	// off there): that project fails, and says why; the others change.
	r := c.run("", append(args, "--yes", "--json")...)
	r.must(t, 1, `"result": "changed"`, "demo/on-prem: failed. Integrated error tracking is not available", "1 of 8 projects failed")
	c.run("", "settings", "get", "-p", "5").must(t, 0, "Active:        yes")
	c.run("", "settings", "get", "-p", "8").must(t, 0, "Active:        yes")
	c.run("", "settings", "get", "-p", "3").must(t, 0, "Integrated:    no")                 // still on Sentry
	c.run("", append(args, "--yes")...).must(t, 1, "Group demo: 1 of 8 projects to enable") // on-prem only, again
	c.run("", "settings", "disable", "--group", "demo", "--yes").must(t, 0, "[1/")
	c.run("", "settings", "get", "-p", "1").must(t, 0, "Active:        no")
	c.run("", "settings", "get", "-p", "7").must(t, 0, "Active:        yes") // in a subgroup, not included
}

func TestProjectsListGroup(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	r := c.run("", "projects", "list", "--group", "demo/mobile")
	r.must(t, 0, "demo/mobile/ios", "integrated · on · 1 key", "demo/mobile/kiosk", "no access (Maintainer role needed)")
	if strings.Contains(r.stdout, "demo/web-shop") {
		t.Fatal(r.stdout)
	}
	c.run("", "projects", "list", "--group", "nope").must(t, 1, "Group not found")
}

// audit lists where each DSN is used, fails on a dangling variable and
// passes once it is fixed; --json never shows a value.
func TestAuditCommand(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	r := c.run("", "audit", "-p", "demo/mobile/ios")
	r.must(t, 1, "901", "SENTRY_DSN (all environments)", "error", "OLD_SENTRY_DSN (environment staging) holds the DSN of a key that no longer exists", "1 error finding")
	r = c.run("", "audit", "-p", "demo/mobile/ios", "--json")
	r.must(t, 1, `"severity": "error"`, `"variable": "SENTRY_DSN"`)
	if strings.Contains(r.stdout, "@") {
		t.Fatalf("a DSN in the JSON: %s", r.stdout)
	}
	c.run("", "api", "DELETE", "projects/7/variables/OLD_SENTRY_DSN").must(t, 0)
	c.run("", "audit", "-p", "demo/mobile/ios").must(t, 0, "SENTRY_DSN (all environments)")
	// android's key: no variable the token can read holds it, and the
	// groups' cannot be read (the demo user owns neither): unknown.
	r = c.run("", "audit", "--group", "demo/mobile")
	r.must(t, 0, "demo/mobile/android", "unknown: the CI/CD variables of group demo could not be read", "skipped demo/mobile/kiosk: you are a Developer here")
	if strings.Contains(r.stdout, "referenced by no CI/CD variable") {
		t.Fatalf("a key whose use is unknown is called unused: %s", r.stdout)
	}
	// ops: a hidden variable and a dotenv file hold ops/api's DSNs; the
	// project shared into ops is audited; the archived one is skipped.
	r = c.run("", "audit", "--group", "ops", "--json")
	r.must(t, 0, `"project": "partner/sdk"`, `"use_unknown": [`, `"hidden variable SENTRY_DSN (all environments)"`, `"line": "SENTRY_DSN"`, "skipped ops/old-dashboard: archived")
	if strings.Contains(r.stdout, "partner/docs") || strings.Contains(r.stdout, "@") {
		t.Fatalf("a project below Maintainer audited, or a DSN printed: %s", r.stdout)
	}
}

// doctor: ok on a healthy project, the fix where a check fails, exit 1.
func TestDoctorCommand(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "doctor", "-p", "demo/mobile/android").must(t, 0, "ok    server", "GitLab 17.5", "ok    keys", "answers (no event sent")
	if r := c.run("", "doctor", "-p", "8"); !strings.HasPrefix(r.stdout, "demo/mobile/android\n") {
		t.Fatalf("doctor -p 8 heads its checks with %q", strings.SplitN(r.stdout, "\n", 2)[0])
	}
	r := c.run("", "doctor", "-p", "demo/mobile/ios", "--json")
	r.must(t, 1, `"status": "fail"`, "OLD_SENTRY_DSN")
	c.run("", "doctor", "-p", "demo/mobile-app").must(t, 1, "fail  settings", "errtrack settings create -p demo/mobile-app")
	c.run("", "doctor", "-p", "demo/web-shop", "--send-test-event").must(t, 0, "the test event was accepted by ingestion at")
	if c.server.Envelopes(1) != 2 {
		t.Fatalf("%d events", c.server.Envelopes(1))
	}
}

// --web opens the project's error tracking settings page with $BROWSER;
// over SSH without one it prints the address.
func TestKeysListWeb(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	record := filepath.Join(dir, "url")
	browser := filepath.Join(dir, "browser")
	if err := os.WriteFile(browser, []byte("#!/bin/sh\nprintf '%s' \"$1\" > "+record+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, nil)
	c.env["BROWSER"] = browser
	c.run("", "keys", "list", "-p", "1", "--web").must(t, 0, "Opened")
	var got []byte
	for i := 0; i < 100 && len(got) == 0; i++ {
		time.Sleep(20 * time.Millisecond)
		got, _ = os.ReadFile(record)
	}
	if want := c.url + "/demo/web-shop/-/settings/operations#js-error-tracking-settings"; string(got) != want {
		t.Fatalf("browser got %q, want %q", got, want)
	}
	delete(c.env, "BROWSER")
	c.env["SSH_CONNECTION"] = "10.0.0.1 22 10.0.0.2 22"
	c.run("", "keys", "list", "-p", "1", "--web").must(t, 0, "Open in your browser: "+c.url+"/demo/web-shop/-/settings/operations")
	c.run("", "settings", "get", "-p", "3", "--web").must(t, 0, "Open in your browser: "+c.url+"/demo/legacy-api/-/settings/operations")
}

func TestConfigCommand(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "config", "set", "host", "gitlab.example.com").must(t, 0)
	c.run("", "config", "get", "host").must(t, 0, "https://gitlab.example.com")
	ca := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(ca, []byte("x"), 0o600)
	c.run("", "config", "set", "ca-file", ca).must(t, 0)
	c.run("", "config", "get", "ca-file").must(t, 0, ca)
	c.run("", "config", "list").must(t, 0, "host=https://gitlab.example.com", "ca-file[https://gitlab.example.com]="+ca)
	c.run("", "config", "set", "ca-file", "/nonexistent").must(t, 2, "not a readable file")
	c.run("", "config", "get", "colour").must(t, 2, "not a setting")
	c.run("", "config", "set", "host", "https://user@evil").must(t, 2)
}

// The console's keys: set, read and listed by errtrack config, checked when
// set and again when the console starts (a file edited by hand).
func TestConfigKeys(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "config", "get", "keys.rotate").must(t, 0, "R")
	c.run("", "config", "set", "keys.rotate", "x, ctrl+e").must(t, 0)
	c.run("", "config", "get", "keys.rotate").must(t, 0, "x,ctrl+e")
	c.run("", "config", "list").must(t, 0, "keys.rotate=x,ctrl+e")
	c.run("", "config", "set", "keys.copy", "x").must(t, 2, `keys.copy: "x" is bound to both rotate and copy`)
	c.run("", "config", "set", "keys.launch", "z").must(t, 2, "not an action that can be rebound")
	c.run("", "config", "get", "keys.copy").must(t, 0, "c")
	// Edited by hand into something invalid: the console refuses to start,
	// naming the file and the entry.
	path := c.cfg
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, []byte(strings.Replace(string(b), `"x"`, `"enter"`, 1)), 0o600)
	c.run("", "--demo").must(t, 2, "config file "+path, `keys.rotate: "enter" is reserved`, "Fix the entry or remove it")
}

// keys verify --group: one event per project, with the DSN its SENTRY_DSN
// holds; the plan first, a dry run sends nothing; projects without the
// variable or not maintained are skipped, not failed.
func TestGroupVerifyCommand(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	args := []string{"keys", "verify", "--group", "demo", "--include-subgroups"}
	c.run("", append(args, "--dry-run")...).must(t, 0, "Group demo: 2 of 8 projects to send a test event to", "demo/mobile/ios", "send a test event with the DSN of key 901", "not a Maintainer", "Dry run: nothing was sent")
	if c.server.Envelopes(1)+c.server.Envelopes(7) != 0 {
		t.Fatal("the dry run sent an event")
	}
	c.run("", args...).must(t, 2, "pass --yes")
	r := c.run("", append(args, "--yes", "--json")...)
	r.must(t, 0, "[1/2]", "[2/2]", "the test event was accepted by ingestion")
	if strings.Contains(r.stdout, "glet_") {
		t.Fatalf("the report names a public key: %s", r.stdout)
	}
	var report []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil {
		t.Fatal(err, r.stdout)
	}
	accepted := 0
	for _, x := range report {
		if x["accepted"] == true {
			accepted++
		}
	}
	if accepted != 2 || c.server.Envelopes(1) != 1 || c.server.Envelopes(7) != 1 || strings.Contains(r.stdout, "glet_") {
		t.Fatalf("events 1:%d 7:%d, report %s", c.server.Envelopes(1), c.server.Envelopes(7), r.stdout)
	}
	c.run("", "keys", "verify", "--group", "demo", "1", "--yes").must(t, 2, "give no KEY_ID")
	c.run("", "keys", "verify", "-p", "1", "1", "--dry-run").must(t, 2, "go with --group")
}

// An event refused in one project fails that project, not the run; the
// exit status says some failed.
func TestGroupVerifyRefused(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{})
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/envelope") && strings.Contains(r.URL.Path, "/7/") {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	c.server = srv
	r := c.run("", "keys", "verify", "--group", "demo", "--include-subgroups", "--yes")
	r.must(t, 1, "1 of 8 projects failed", "key 901: ", "Key 1: the test event was accepted by ingestion")
	if srv.Envelopes(1) != 1 {
		t.Fatal("the other project's event was not sent")
	}
}

// audit says when errtrack first saw each key, exactly for the keys it
// created, and warns of an unused key older than the keys in use.
func TestAuditFirstSeen(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.env["ERRTRACK_STATE_DIR"] = t.TempDir()
	c.now = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	c.run("", "audit", "-p", "1", "--json").must(t, 0, `"first_seen": "2026-11-01T12:00:00Z"`)
	c.now = c.now.AddDate(0, 0, 3)
	c.run("", "keys", "rotate", "-p", "demo/web-shop", "--old", "2", "--yes", "--delete-with-unread-groups").must(t, 0)
	c.now = c.now.AddDate(0, 0, 1)
	r := c.run("", "audit", "-p", "1")
	r.must(t, 0, "2026-11-01", "2026-11-04 (created)")
	// SENTRY_DSN holds key 1, first seen with key 2 on day one; key 4 is
	// newer and unused: nothing older and unused, so no warning.
	if strings.Contains(r.stdout, "older than the keys in use") {
		t.Fatal(r.stdout)
	}
}

// A project is named by its path in the settings record, given by ID too;
// settings create names the first client key GitLab created.
func TestSettingsNameTheProjectAndTheFirstKey(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "settings", "get", "-p", "1").must(t, 0, "Project:       demo/web-shop")
	r := c.run("", "settings", "create", "-p", "2", "--active=true", "--integrated=true")
	r.must(t, 0, "Project:       demo/mobile-app", "GitLab created the first client key, ")
	if c.server.KeyCount(2) != 1 || !strings.Contains(r.stdout, fmt.Sprintf("key, %d:", c.server.Keys(2)[0].ID)) {
		t.Fatalf("keys %v, output %s", c.server.Keys(2), r.stdout)
	}
	c.run("", "settings", "disable", "-p", "1").must(t, 0, "Project:       demo/web-shop")
	if r := c.run("", "settings", "enable", "-p", "1"); strings.Contains(r.stdout, "GitLab created") {
		t.Fatalf("no key was created, yet: %s", r.stdout)
	}
}

// The commands' words, as the console's: a host given without a scheme
// that answers plain HTTP on this machine hints at http://; an expiring
// token from the environment is replaced there; ERRTRACK_DEBUG=1 debugs;
// a server's text never makes a usage error.
func TestCommandWords(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "status", "--host", strings.TrimPrefix(c.url, "http://")).must(t, 1, "answered plain HTTP", "use --host "+c.url)
	c.env["GITLAB_TOKEN"] = mockserver.TokenExpiring
	c.run("", "status").must(t, 0, "← create a new token and set GITLAB_TOKEN to it")
	c.env["GITLAB_TOKEN"] = mockserver.TokenMaintainer
	c.env["ERRTRACK_DEBUG"] = "1"
	c.run("", "settings", "get", "-p", "1").must(t, 0, "> GET ", "[redacted]")
	delete(c.env, "ERRTRACK_DEBUG")
	srv, _ := mockserver.New(mockserver.Options{})
	c2 := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/error_tracking/settings") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			w.Write([]byte(`{"message":"active accepts only true, unknown flag"}`))
			return
		}
		srv.ServeHTTP(w, r)
	}))
	r := c2.run("", "settings", "get", "-p", "1")
	r.must(t, 1)
	if strings.Contains(r.stderr, "--help") {
		t.Fatalf("a server's 400 was taken for a usage error: %s", r.stderr)
	}
}

// A listing whose rate-limit waits would pass --timeout ends at once with
// the rows it could not read marked, exit 1, and says to give it longer.
func TestProjectsListRateLimitedPastTimeout(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{ScaleProjects: 30, RateLimit: 20})
	c := newCLI(t, srv)
	c.server = srv
	start := time.Now()
	r := c.run("", "projects", "list", "--timeout", "3s")
	r.must(t, 1, "could not be read", "ran past --timeout 3s: run the command again with a longer one")
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %s", d)
	}
}

// keys rotate --yes keeps the old key when a group variable holds its DSN,
// saying which and how to go on; --keep-variables deletes it.
func TestRotateKeepsKeyGroupVariableHolds(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{ScaleGroup: 1})
	c := newCLI(t, srv)
	c.server = srv
	c.run("", "keys", "rotate", "-p", "fleet/app-001", "--ci-variable", "SENTRY_DSN", "--yes", "--delete-with-unread-groups").must(t, 1,
		"The CI/CD variable FLEET_SENTRY_DSN (environment production) of group fleet holds the old DSN", "pass --keep-variables")
	if srv.KeyCount(2001) != 2 {
		t.Fatalf("keys %v", srv.Keys(2001))
	}
	// Run again with --keep-variables, it goes on with the key the first
	// run made: no second key.
	c.run("", "keys", "rotate", "-p", "fleet/app-001", "--old", "200001", "--ci-variable", "SENTRY_DSN", "--keep-variables", "--yes", "--delete-with-unread-groups").must(t, 0, "Going on with it")
	if srv.KeyCount(2001) != 1 || slices.ContainsFunc(srv.Keys(2001), func(k mockserver.ClientKey) bool { return k.ID == 200001 }) {
		t.Fatalf("keys %v", srv.Keys(2001))
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
