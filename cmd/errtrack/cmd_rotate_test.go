package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// Interactively, the command names the variables that hold the old DSN and
// asks before the old key goes; No keeps them and the delete question says
// they still hold it.
func TestRotateAsksAboutVariables(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.tty = true
	r := c.run("y\ny\n", "keys", "rotate", "-p", "1", "--old", "1")
	r.must(t, 0, "CI/CD variable SENTRY_DSN (all environments) holds the old key's DSN", "Point it at the new DSN", "Rotated: new key 4 replaces key 1", "SENTRY_DSN (all environments) holds the new DSN")
	keys := c.server.Keys(1)
	if v := c.server.Variables(1)[0].Value; !strings.Contains(v, keys[len(keys)-1].PublicKey) {
		t.Fatalf("SENTRY_DSN = %q", v)
	}
	c = newCLI(t, nil)
	c.tty = true
	r = c.run("n\nn\n", "keys", "rotate", "-p", "1", "--old", "1")
	r.must(t, 0, "CI/CD variable SENTRY_DSN (all environments) holds it still", "Both keys exist", "still holds the old DSN")
	if c.server.Variables(1)[0].Value != "{{dsn:1}}" || c.server.Keys(1)[0].ID != 1 {
		t.Fatal("changed after No, No")
	}
}

// A create answered with the key being replaced (a replaying proxy) is no
// new key: nothing is deleted and the exit status says so.
func TestRotateCreateAnswerNamesOldKey(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{})
	var oldKey []byte
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/client_keys") {
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, r) // the key is created; the answer is replaced
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(201)
			w.Write(oldKey)
			return
		}
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/client_keys") && oldKey == nil {
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, r)
			body, _ := io.ReadAll(rec.Result().Body)
			var keys []json.RawMessage
			json.Unmarshal(body, &keys)
			oldKey = keys[0]
		}
		srv.ServeHTTP(w, r)
	}))
	c.run("", "keys", "list", "-p", "5").must(t, 0)
	r := c.run("", "keys", "rotate", "-p", "5", "--yes", "--json")
	r.must(t, 1, "names key 3, the key being replaced", "No new key is known", "may or may not have been created")
	if keys := srv.Keys(5); keys[0].ID != 3 {
		t.Fatalf("key 3 deleted: %v", keys)
	}
	if strings.Contains(r.stderr, "Rotated") {
		t.Fatal(r.stderr)
	}
}

// An update whose answer was lost is "may or may not", with where to check.
func TestRotateVariableUpdateAnswerLost(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{})
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut && strings.Contains(r.URL.Path, "/variables/") {
			srv.ServeHTTP(httptest.NewRecorder(), r) // applied; the answer is lost
			w.WriteHeader(500)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	r := c.run("", "keys", "rotate", "-p", "1", "--old", "1", "--update-variables", "--yes", "--json")
	r.must(t, 1, "may or may not have happened", "SENTRY_DSN (all environments) may or may not hold the new DSN", "Settings > CI/CD > Variables", `"result": "unknown"`)
	if strings.Contains(r.stderr, "still holds the old DSN") || srv.Keys(1)[0].ID != 1 {
		t.Fatalf("%s\nkeys %v", r.stderr, srv.Keys(1))
	}
}

// keys delete names the variables that hold the key's DSN: in the question,
// and on stderr with --yes.
func TestKeysDeleteNamesVariables(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.tty = true
	c.run("n\n", "keys", "delete", "-p", "1", "1").must(t, 0, "CI/CD variable SENTRY_DSN (all environments) holds this key's DSN", "Nothing deleted")
	c.tty = false
	c.run("", "keys", "delete", "-p", "1", "1", "--yes").must(t, 0, "warning: CI/CD variable SENTRY_DSN (all environments) holds this key's DSN", "Deleted client key 1")
	r := c.run("", "keys", "delete", "-p", "1", "2", "--yes")
	r.must(t, 0, "Deleted client key 2")
	if strings.Contains(r.stderr, "SENTRY_DSN") {
		t.Fatal(r.stderr)
	}
}

func TestRotate(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	before := c.server.Keys(5)
	r := c.run("", "keys", "rotate", "-p", "demo/paused", "--yes", "--delete-with-unread-groups")
	r.must(t, 0, "Created client key", "replaces key 3 (glet_", "which is deleted")
	after := c.server.Keys(5)
	if len(before) != 1 || len(after) != 1 || after[0].ID == before[0].ID {
		t.Fatalf("before %v after %v", before, after)
	}
	if strings.TrimSpace(r.stdout) != "http://"+after[0].PublicKey+"@"+strings.TrimPrefix(c.url, "http://")+"/errortracking/api/v1/projects/5" {
		t.Fatalf("stdout is not the new DSN: %q", r.stdout)
	}
	c.run("", "keys", "rotate", "-p", "1", "--yes", "--delete-with-unread-groups").must(t, 2, "has 2 client keys", "--old")
	if c.server.KeyCount(1) != 2 {
		t.Fatal("rotate with an ambiguous old key changed something")
	}
	c.run("", "keys", "rotate", "-p", "1", "--old", "99", "--yes", "--delete-with-unread-groups").must(t, 1, "no client key 99", "nothing was changed")
	// SENTRY_DSN holds key 1's DSN: --yes alone never deletes key 1.
	r = c.run("", "keys", "rotate", "-p", "1", "--old", "1", "--yes", "--delete-with-unread-groups", "--json")
	r.must(t, 1, "CI/CD variable SENTRY_DSN (all environments) holds the old key's DSN, so the old key is kept", "--update-variables", "--keep-variables")
	var rot struct {
		Created, Deleted map[string]any
		Variables        []map[string]any
	}
	if err := json.Unmarshal([]byte(r.stdout), &rot); err != nil || rot.Deleted != nil || rot.Created["errtracker_dsn"] == nil ||
		len(rot.Variables) != 1 || rot.Variables[0]["result"] != "unchanged" || rot.Variables[0]["held_old_dsn"] != true {
		t.Fatalf("json %s: %v", r.stdout, err)
	}
	if c.server.Keys(1)[0].ID != 1 || c.server.Variables(1)[0].Value != "{{dsn:1}}" {
		t.Fatal("key 1 or SENTRY_DSN changed")
	}
	made := rot.Created["id"]
	// The retry goes on with the key the first run made: no second key.
	r = c.run("", "keys", "rotate", "-p", "1", "--old", "1", "--yes", "--delete-with-unread-groups", "--update-variables", "--json")
	r.must(t, 0, "SENTRY_DSN (all environments) holds the new DSN", fmt.Sprintf("Key %v was made by an unfinished rotation of key 1", made), "Going on with it")
	if err := json.Unmarshal([]byte(r.stdout), &rot); err != nil || rot.Deleted["id"].(float64) != 1 || rot.Variables[0]["result"] != "updated" || rot.Created["id"] != made {
		t.Fatalf("json %s: %v", r.stdout, err)
	}
	if strings.Contains(r.stdout, `"value"`) {
		t.Fatal("the JSON shows a variable's value")
	}
	c.run("", "keys", "rotate", "-p", "1", "--old", "2", "--yes", "--delete-with-unread-groups", "--update-variables", "--keep-variables").must(t, 2, "opposite")
	c.run("", "keys", "rotate", "-p", "1", "--old", "2").must(t, 2, "Give --yes")
	c.tty = true
	c.run("n\n", "keys", "rotate", "-p", "1", "--old", "2").must(t, 0, "old key 2 (glet_", "was kept")
	if c.server.KeyCount(1) != 3 {
		t.Fatalf("keys %v", c.server.Keys(1))
	}
}

// failingDeletes answers every DELETE with 503, as a broken proxy would.
type failingDeletes struct{ next http.Handler }

func (f failingDeletes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodDelete {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("<html>down</html>"))
		return
	}
	f.next.ServeHTTP(w, r)
}

func TestRotateDeleteFailsKeepsBoth(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{})
	c := newCLI(t, failingDeletes{srv})
	r := c.run("", "keys", "rotate", "-p", "5", "--yes", "--delete-with-unread-groups", "--json")
	r.must(t, 1, "old key 3 (glet_", "may or may not have been deleted", "HTTP 503", "keys delete --project 5 3")
	keys := srv.Keys(5)
	if len(keys) != 2 || keys[0].ID != 3 {
		t.Fatalf("keys %v: old key must stay and the new one exist", keys)
	}
	if !strings.Contains(r.stdout, keys[1].PublicKey) || strings.Contains(r.stdout, `"deleted": {`) {
		t.Fatalf("stdout does not show the new key alone: %s", r.stdout)
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

// keys rotate going on with an unfinished rotation whose new key was
// deleted in GitLab's UI: it says to run the command with --restart, and
// neither prints a DSN nor says it "goes on with" the key that is gone.
func TestRotateWithAGoneNewKeyOffersRestart(t *testing.T) {
	c := newCLI(t, nil)
	c.run("", "keys", "rotate", "-p", "demo/web-shop", "--old", "1", "--yes", "--delete-with-unread-groups").must(t, 1, "Both keys exist: new key 4")
	gc, err := apiclient.New(c.url, mockserver.TokenMaintainer)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := gc.DeleteClientKey(context.Background(), apiclient.ProjectID(1), 4); err != nil {
		t.Fatal(err)
	}
	r := c.run("", "keys", "rotate", "-p", "demo/web-shop", "--old", "1", "--yes", "--delete-with-unread-groups", "--update-variables")
	r.must(t, 1, "Key 4, made by the unfinished rotation of key 1", "Run the same command with --restart")
	if strings.TrimSpace(r.stdout) != "" || strings.Contains(r.stderr, "goes on with key 4") {
		t.Fatalf("stdout %q\nstderr %s", r.stdout, r.stderr)
	}
	c.run("", "keys", "rotate", "-p", "demo/web-shop", "--old", "1", "--yes", "--delete-with-unread-groups", "--update-variables", "--restart").must(t, 0, "Rotated: new key 5 replaces key 1")
}

// The demo user is a Maintainer of the projects, no Owner of their groups,
// whose variables answer 403: with --yes nobody was shown them, so the old
// key stays unless --delete-with-unread-groups says it goes anyway; a
// group rotation leaves such projects alone, naming the group.
func TestRotateKeepsTheOldKeyWhileAGroupIsUnread(t *testing.T) {
	c := newCLI(t, nil)
	c.env["ERRTRACK_STATE_DIR"] = t.TempDir()
	c.run("", "keys", "rotate", "-p", "demo/web-shop", "--old", "1", "--update-variables", "--yes").
		must(t, 1, "variables of group demo are unknown", "needs the Owner role", "The old key is kept", "--delete-with-unread-groups")
	if !hasKey(c, 1, 1) {
		t.Fatal("key 1 deleted although group demo's variables were unread")
	}
	c.run("", "keys", "rotate", "-p", "demo/web-shop", "--old", "1", "--update-variables", "--yes", "--delete-with-unread-groups").must(t, 0, "Rotated")
	if hasKey(c, 1, 1) {
		t.Fatal("key 1 kept with --delete-with-unread-groups")
	}
	c.run("", "keys", "rotate", "--group", "demo/mobile", "--ci-variable", "SENTRY_DSN", "--dry-run").
		must(t, 1, "demo/mobile/ios", "not rotated: the variables of group", "demo are unknown", "Dry run: nothing was changed")
}

func hasKey(c *cli, project, id int64) bool {
	for _, k := range c.server.Keys(project) {
		if k.ID == id {
			return true
		}
	}
	return false
}
