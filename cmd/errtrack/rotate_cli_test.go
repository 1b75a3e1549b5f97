package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
