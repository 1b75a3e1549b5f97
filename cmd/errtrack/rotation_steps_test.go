package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// failNth answers the nth request (counting from 1) with status, before it
// reaches the server, and lets every other one through.
type failNth struct {
	next   http.Handler
	n      int64
	status int
	seen   atomic.Int64
	failed atomic.Value // "METHOD path" of the failed request
}

func (f *failNth) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if f.seen.Add(1) == f.n {
		f.failed.Store(r.Method + " " + r.URL.Path)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(f.status)
		fmt.Fprintf(w, `{"message":"%d injected"}`, f.status)
		return
	}
	f.next.ServeHTTP(w, r)
}

// TestRotateFailsAtEveryStep fails each request of a full rotation in turn
// (plan, variable lookup, create, check, test event, variable update,
// delete), once refused (403) and once with its outcome unknown (500), and
// checks what is left: the old key goes only after the new DSN was accepted
// and the variable holds it; a created key is always printed; what the
// output says is what the server holds.
func TestRotateFailsAtEveryStep(t *testing.T) {
	t.Parallel()
	args := []string{"keys", "rotate", "-p", "1", "--old", "1", "--ci-variable", "SENTRY_DSN", "--verify", "--yes", "--delete-with-unread-groups", "--json"}
	steps := 0
	for n := int64(1); ; n++ {
		done := false
		for _, status := range []int{403, 500} {
			srv, err := mockserver.New(mockserver.Options{})
			if err != nil {
				t.Fatal(err)
			}
			f := &failNth{next: srv, n: n, status: status}
			c := newCLI(t, f)
			c.server = srv
			r := c.run("", args...)
			failed, _ := f.failed.Load().(string)
			if failed == "" {
				r.must(t, 0, "holds the new DSN", "replaces key 1")
				done = true
				break
			}
			where := fmt.Sprintf("request %d (%s) failing with %d", n, failed, status)
			if r.code == 0 {
				// A read answered 500 is retried; the project record only
				// names the project (the key list decides); a group's
				// variables the token cannot read are left out, as the
				// audit leaves them; the token's user only names who
				// rotated in the ledger: the rotation goes on.
				if !strings.HasSuffix(failed, "/projects/1") && !(status == 500 && strings.HasPrefix(failed, "GET ")) && !strings.Contains(failed, "/groups/") && failed != "GET /api/v4/user" {
					t.Fatalf("%s: exit 0\n%s", where, r.stderr)
				}
				r.must(t, 0, "holds the new DSN", "replaces key 1")
				continue
			}
			keys := srv.Keys(1)
			vars := srv.Variables(1)
			oldKept := keys[0].ID == 1
			var newKey *mockserver.ClientKey
			if len(keys) == 3 || (!oldKept && len(keys) == 2) {
				k := keys[len(keys)-1]
				newKey = &k
			}
			variableNew := len(vars) == 1 && newKey != nil && strings.Contains(vars[0].Value, newKey.PublicKey)
			switch {
			case !oldKept && !variableNew:
				t.Fatalf("%s: the old key was deleted while SENTRY_DSN does not hold the new DSN", where)
			case newKey == nil && len(vars) == 1 && vars[0].Value != "{{dsn:1}}":
				t.Fatalf("%s: the variable changed without a new key: %q", where, vars[0].Value)
			case newKey == nil && !strings.Contains(r.stderr, "is untouched") && !strings.Contains(strings.ToLower(r.stderr), "nothing was changed"):
				t.Fatalf("%s: no key was created, and the output does not say so:\n%s", where, r.stderr)
			case newKey != nil && strings.Contains(strings.ToLower(r.stderr), "nothing was changed"):
				t.Fatalf("%s: a key was created, yet the output says nothing was changed:\n%s", where, r.stderr)
			case newKey != nil && !strings.Contains(r.stdout, newKey.PublicKey):
				t.Fatalf("%s: the new key is not printed, so its DSN is lost:\n%s", where, r.stdout)
			case newKey != nil && oldKept && !strings.Contains(r.stderr, "Both keys exist") && !strings.Contains(r.stderr, "may or may not"):
				t.Fatalf("%s: both keys exist, and the output does not say so:\n%s", where, r.stderr)
			case newKey != nil && variableNew && !strings.Contains(r.stderr, "SENTRY_DSN (all environments) holds the new DSN"):
				t.Fatalf("%s: the variable holds the new DSN, and the output does not say so:\n%s", where, r.stderr)
			case newKey != nil && !variableNew && !strings.Contains(r.stderr, "SENTRY_DSN (all environments) still holds the old DSN") &&
				!strings.Contains(r.stderr, "SENTRY_DSN (all environments) may or may not hold the new DSN"):
				t.Fatalf("%s: the variable holds the old DSN, and the output does not say so:\n%s", where, r.stderr)
			}
			if newKey != nil {
				var out struct {
					Variables []struct {
						Key    string `json:"key"`
						Result string `json:"result"`
					} `json:"variables"`
				}
				err := json.Unmarshal([]byte(r.stdout), &out)
				if err != nil || len(out.Variables) != 1 || (out.Variables[0].Result == "updated") != variableNew && out.Variables[0].Result != "unknown" {
					t.Fatalf("%s: JSON %s (%v)", where, r.stdout, err)
				}
				if strings.Contains(r.stdout, `"value"`) {
					t.Fatalf("%s: the JSON shows the variable's value", where)
				}
			}
		}
		if done {
			break
		}
		steps++
		if n > 20 {
			t.Fatal("the rotation never ran to its end")
		}
	}
	if steps < 7 {
		t.Fatalf("a full rotation made %d requests; expected at least 7", steps)
	}
	t.Logf("failed each of %d requests in turn, twice", steps)
}

// A missing variable is created masked and raw; an ambiguous name stops the
// rotation before anything changes.
func TestRotateCIVariable(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	r := c.run("", "keys", "rotate", "-p", "5", "--ci-variable", "DSN_FOR_DEPLOY", "--yes", "--delete-with-unread-groups")
	r.must(t, 0, "CI/CD variable DSN_FOR_DEPLOY (all environments) was created with the new DSN (masked, raw, not protected)")
	vars := c.server.Variables(5)
	if len(vars) != 1 || !vars[0].Masked || !vars[0].Raw || vars[0].Protected || vars[0].Value != strings.TrimSpace(r.stdout) {
		t.Fatalf("%+v", vars)
	}
	before := c.server.Keys(1)
	c.run("", "api", "POST", "projects/1/variables", "-f", "key=SENTRY_DSN", "-f", "value=https://x@example.com/1", "-f", "environment_scope=production").must(t, 0)
	c.run("", "keys", "rotate", "-p", "1", "--old", "1", "--ci-variable", "SENTRY_DSN", "--yes", "--delete-with-unread-groups").must(t, 2,
		"2 CI/CD variables named SENTRY_DSN", "*, production", "--environment-scope", "nothing was changed")
	if len(c.server.Keys(1)) != len(before) {
		t.Fatal("a key was created before the ambiguity was found")
	}
	// SENTRY_DSN (*) holds key 1's DSN too: a rotation scoped to
	// production never changes it, and keeps key 1 while it holds its DSN,
	// --keep-variables or not (scopes never mix).
	c.run("", "keys", "rotate", "-p", "1", "--old", "1", "--ci-variable", "SENTRY_DSN", "--environment-scope", "production", "--yes", "--delete-with-unread-groups").must(t, 1,
		"SENTRY_DSN (all environments) outside this rotation's scope still holds its DSN", "Both keys exist")
	r = c.run("", "keys", "rotate", "-p", "1", "--old", "1", "--ci-variable", "SENTRY_DSN", "--environment-scope", "production", "--keep-variables", "--yes", "--delete-with-unread-groups", "--json")
	r.must(t, 1, "Going on with it", `"environment_scope": "production"`, `"result": "updated"`, `"result": "unchanged"`, "outside this rotation's scope")
	if !slices.ContainsFunc(c.server.Keys(1), func(k mockserver.ClientKey) bool { return k.ID == 1 }) {
		t.Fatal("key 1 was deleted while SENTRY_DSN (all environments) holds its DSN")
	}
	for _, v := range c.server.Variables(1) {
		if v.EnvironmentScope == "*" && v.Value != "{{dsn:1}}" {
			t.Fatalf("the other scope changed: %+v", v)
		}
	}
	c.run("", "keys", "rotate", "-p", "1", "--environment-scope", "x", "--yes", "--delete-with-unread-groups").must(t, 2, "give --ci-variable too")
	c.run("", "keys", "rotate", "-p", "1", "--ci-variable", "NO-DASH", "--yes", "--delete-with-unread-groups").must(t, 2, "not a CI/CD variable name")
}

// keys verify: accepted, refused, and asked first.
func TestKeysVerify(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "keys", "verify", "-p", "1", "1").must(t, 2, "pass --yes")
	c.run("", "keys", "verify", "-p", "1", "1", "--yes").must(t, 0, "Key 1 (glet_", "the test event was accepted by ingestion (HTTP 200")
	if c.server.Envelopes(1) != 1 {
		t.Fatalf("%d envelopes", c.server.Envelopes(1))
	}
	c.tty = true
	c.run("n\n", "keys", "verify", "-p", "1", "2").must(t, 0, "recorded in the project", "Nothing sent.")
	if c.server.Envelopes(1) != 1 {
		t.Fatal("sent after No")
	}
	c.run("", "keys", "verify", "-p", "1", "99", "--yes").must(t, 1, "has no client key 99: nothing was sent")
	r := c.run("", "keys", "verify", "-p", "1", "2", "--yes", "--json")
	r.must(t, 0, `"accepted": true`, `"status": 200`)
}

// A refused DSN: the backend answers 401 for a key it does not know.
func TestKeysVerifyRefused(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{})
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/envelope/") {
			w.WriteHeader(401)
			w.Write([]byte("{\"detail\":\"invalid key\x1b[31m\"}"))
			return
		}
		srv.ServeHTTP(w, r)
	}))
	r := c.run("", "keys", "verify", "-p", "1", "1", "--yes")
	r.must(t, 1, "refused the test event (HTTP 401", "inactive or deleted")
	if strings.Contains(r.stderr, "\x1b") {
		t.Fatal("server text not cleaned")
	}
}

// auth rotate: stored first, refused for an environment token, never
// retried, and truthful when the keyring fails before or after.
func TestAuthRotate(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "auth", "rotate").must(t, 2, "comes from GITLAB_TOKEN", "unset GITLAB_TOKEN")
	delete(c.env, "GITLAB_TOKEN")
	c.store.m[c.url] = mockserver.TokenMaintainer
	c.run("", "auth", "rotate", "--expires-in", "400d").must(t, 2, "1d to 365d")
	c.run("", "auth", "rotate", "--expires-in", "2w").must(t, 2, "pass --yes")
	// Asked, it says what is left of this token against the new one.
	c.tty = true
	c.run("n\n", "auth", "rotate", "--expires-in", "2w").must(t, 0, "valid for 14 days", "This one expires in ", "The token was not rotated")
	if tok, _ := c.server.Token(mockserver.TokenMaintainer); tok.Revoked {
		t.Fatal("rotated although the answer was no")
	}
	r := c.run("y\n", "auth", "rotate", "--expires-in", "2w")
	c.tty = false
	r.must(t, 0, "Rotated the token for "+c.url, "old one is revoked", "expires in 14 days")
	newTok := c.store.m[c.url]
	if newTok == mockserver.TokenMaintainer || strings.Contains(r.stdout+r.stderr, newTok) {
		t.Fatalf("new token not stored, or printed")
	}
	if tok, _ := c.server.Token(mockserver.TokenMaintainer); !tok.Revoked {
		t.Fatal("old token not revoked")
	}
	c.run("", "status").must(t, 0, "expires in 14 days")

	// The keyring fails before: nothing rotated.
	c.store.failSets = func(n int) bool { return true }
	c.run("", "auth", "rotate", "--yes").must(t, 1, "was not rotated, because the keyring cannot store")
	if tok, _ := c.server.Token(newTok); tok.Revoked {
		t.Fatal("rotated although the keyring could not store")
	}
	// The keyring fails after: said so, with what to do.
	c.store.sets = 0
	c.store.failSets = func(n int) bool { return n == 2 }
	c.run("", "auth", "rotate", "--yes").must(t, 1, "old one is revoked, but the keyring did not take the new one", "errtrack login")
	c.store.failSets = nil

	// A lost answer is not retried.
	srv, _ := mockserver.New(mockserver.Options{})
	var posts atomic.Int32
	c2 := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/rotate") {
			posts.Add(1)
			w.WriteHeader(502)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	delete(c2.env, "GITLAB_TOKEN")
	c2.store.m[c2.url] = mockserver.TokenMaintainer
	c2.run("", "auth", "rotate", "--yes").must(t, 1, "may have been rotated anyway", "Do not try again")
	if posts.Load() != 1 {
		t.Fatalf("rotation sent %d times", posts.Load())
	}
	// Before 16.10 there is no such API.
	old, _ := mockserver.New(mockserver.Options{GitLabVersion: "16.9"})
	c3 := newCLI(t, old)
	delete(c3.env, "GITLAB_TOKEN")
	c3.store.m[c3.url] = mockserver.TokenMaintainer
	c3.run("", "auth", "rotate", "--yes").must(t, 1, "GitLab 16.9 has no API to rotate the token in use (added in 16.10)")
}
