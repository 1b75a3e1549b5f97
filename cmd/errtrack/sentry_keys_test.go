package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

// sentryCLI is the command line against a mock GitLab whose demo/legacy-api
// reports to a mock Sentry, with that Sentry's token in SENTRY_AUTH_TOKEN.
func sentryCLI(t *testing.T) (*cli, *mocksentry.Server) {
	t.Helper()
	return sentryCLIWith(t, mocksentry.Options{})
}

// sentryCLIWith is sentryCLI with the mock Sentry's options.
func sentryCLIWith(t *testing.T, opts mocksentry.Options) (*cli, *mocksentry.Server) {
	t.Helper()
	var ss *mocksentry.Server
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ss.ServeHTTP(w, r) }))
	t.Cleanup(ts.Close)
	opts.PublicURL = ts.URL
	ss = mocksentry.New(opts)
	gl, err := mockserver.New(mockserver.Options{SentryURL: ts.URL, SentryDSN: ss.DSN("demo", "legacy-api", "Production")})
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, gl)
	c.server = gl
	c.env["SENTRY_AUTH_TOKEN"] = mocksentry.TokenAdmin
	c.env["SENTRY_URL"] = ts.URL
	return c, ss
}

// A Sentry-backed project's keys, from the commands: listed with names and
// rate limits, rotated softly (a named new key, SENTRY_DSN repointed, a
// test event through the new DSN, the old key disabled) with the rotation
// open in the ledger, then closed by running it again, which deletes the
// old key; never a value or a secret in the output.
func TestSentryKeysFromTheCommands(t *testing.T) {
	t.Parallel()
	c, ss := sentryCLI(t)
	r := c.run("", "keys", "list", "-p", "demo/legacy-api", "--json")
	r.must(t, 0, `"backend": "sentry"`, `"name": "Production"`, `"count": 1000`)
	var keys []sentryKeyJSON
	if err := json.Unmarshal([]byte(r.stdout), &keys); err != nil || len(keys) != 2 {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	old := keys[1].ID
	if keys[0].Name == "Production" {
		old = keys[0].ID
	}
	c.run("", "keys", "rotate", "-p", "demo/legacy-api", "--old", old, "--name", "Production 2", "--soft", "--update-variables", "--verify", "--yes", "--delete-with-unread-groups").
		must(t, 0, "Rotated softly", `"Production 2"`, "SENTRY_DSN (all environments) holds the new DSN", "the new DSN was accepted by ingestion")
	var newKey string
	for _, k := range ss.Keys("demo", "legacy-api") {
		switch k.Label {
		case "Production":
			if k.Active {
				t.Fatal("the old key is not disabled")
			}
		case "Production 2":
			newKey = k.Public
		}
	}
	if newKey == "" || ss.Events(newKey) != 1 {
		t.Fatalf("new key %q, events %d", newKey, ss.Events(newKey))
	}
	if v := c.server.Variables(3); len(v) != 1 || !strings.Contains(v[0].Value, newKey) {
		t.Fatalf("SENTRY_DSN: %+v", v)
	}
	r = c.run("", "rotations", "--json", "-p", "demo/legacy-api")
	r.must(t, 0, `"state": "open"`, `"phase": "disabled"`, `"backend": "sentry"`)
	if strings.Contains(r.stdout, "dsn") || strings.Contains(r.stdout, "value") {
		t.Fatalf("the ledger shows a DSN or a value: %s", r.stdout)
	}
	c.run("", "keys", "rotate", "-p", "demo/legacy-api", "--old", old, "--yes", "--delete-with-unread-groups").must(t, 0, "Going on with it", "which is deleted")
	c.run("", "rotations", "--json", "-p", "demo/legacy-api").must(t, 0, `"state": "finished"`, `"phase": "done"`)
	if n := len(ss.Keys("demo", "legacy-api")); n != 2 {
		t.Fatalf("%d keys, want the new and Staging", n)
	}
	c.run("", "keys", "update", "-p", "demo/legacy-api", newKey, "--rate-limit", "500/60", "--json").must(t, 0, `"count": 500`, `"window": 60`)
	c.run("", "keys", "update", "-p", "demo/legacy-api", newKey, "--rate-limit", "50/min", "--json").must(t, 0, `"count": 50`, `"window": 60`)
	c.run("", "keys", "update", "-p", "demo/web-shop", "1", "--name", "x").must(t, 1, "GitLab's integrated error tracking")
	c.run("", "keys", "rotate", "-p", "demo/web-shop", "--old", "1", "--soft", "--yes", "--delete-with-unread-groups").must(t, 1, "cannot be disabled")
}

// The Sentry token goes only to the host GitLab's settings name: a
// project whose settings name another Sentry gets no token there (and the
// other host sees no request), with words saying how to log in there.
func TestSentryTokenOnlyToItsHost(t *testing.T) {
	t.Parallel()
	var hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.WriteHeader(401)
	}))
	defer other.Close()
	gl, _ := mockserver.New(mockserver.Options{SentryURL: other.URL})
	c := newCLI(t, gl)
	c.env["SENTRY_AUTH_TOKEN"] = mocksentry.TokenAdmin
	c.env["SENTRY_URL"] = "https://sentry.example.org"
	r := c.run("", "keys", "list", "-p", "demo/legacy-api")
	r.must(t, 1, "errtrack login --sentry "+other.URL)
	if hits.Load() != 0 {
		t.Fatalf("the other host got %d requests", hits.Load())
	}
	if strings.Contains(r.stdout+r.stderr, mocksentry.TokenAdmin) {
		t.Fatal("the token was printed")
	}
}

// A Sentry rotation stopped with both keys says how to finish it by the
// old key's public key (a Sentry key has no ID).
func TestSentryRotationLeftOpenNamesTheKey(t *testing.T) {
	t.Parallel()
	c, ss := sentryCLI(t)
	var old string
	for _, k := range ss.Keys("demo", "legacy-api") {
		if k.Label == "Production" {
			old = k.Public
		}
	}
	r := c.run("", "keys", "rotate", "-p", "demo/legacy-api", "--old", old, "--yes", "--delete-with-unread-groups")
	r.must(t, 1, "--old "+old, "'errtrack keys delete -p demo/legacy-api "+old+"'")
	// A public key may itself start with 0: only a bare 0 is the wrong name.
	if regexp.MustCompile(`--old 0\b`).MatchString(r.stderr) {
		t.Fatalf("a Sentry key named by ID 0:\n%s", r.stderr)
	}
}

// keys verify --group finds a Sentry-backed project's key in its Sentry,
// as the group rotation does, and sends its event there.
func TestGroupVerifyFindsSentryKeys(t *testing.T) {
	t.Parallel()
	c, ss := sentryCLI(t)
	r := c.run("", "keys", "verify", "--group", "demo", "--yes", "--json")
	r.must(t, 0, `"project": "demo/legacy-api"`, `Key "Production"`)
	var prod string
	for _, k := range ss.Keys("demo", "legacy-api") {
		if k.Label == "Production" {
			prod = k.Public
		}
	}
	if ss.Events(prod) != 1 {
		t.Fatalf("%d events through Production's DSN:\n%s\n%s", ss.Events(prod), r.stdout, r.stderr)
	}
}

// keys rotate --name on a project whose keys are GitLab's is refused, as
// keys create --name is: nothing changes.
func TestRotateNameRefusedForGitLabKeys(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "keys", "rotate", "-p", "demo/web-shop", "--old", "1", "--name", "prod", "--keep-variables", "--yes", "--delete-with-unread-groups").must(t, 1, "have no names", "nothing was changed")
	if c.server.KeyCount(1) != 2 {
		t.Fatalf("keys %v", c.server.Keys(1))
	}
}

// keys update of a key the Sentry project does not have says so, with
// where to look.
func TestSentryKeyUpdateOfAnUnknownKey(t *testing.T) {
	t.Parallel()
	c, _ := sentryCLI(t)
	c.run("", "keys", "update", "-p", "demo/legacy-api", "0123456789abcdef0123456789abcdef", "--name", "x").
		must(t, 1, "has no key 0123456789abcdef0123456789abcdef: nothing was changed", "errtrack keys list -p demo/legacy-api")
}

// A Sentry project renamed since GitLab's settings were written (Sentry
// answers ProjectMoved, a 302): a key update stops, names the rename and
// the new slug, and where GitLab's settings are fixed; the key is unchanged.
func TestSentryKeyUpdateOfARenamedProject(t *testing.T) {
	c, ss := sentryCLI(t)
	key := ss.Keys("demo", "legacy-api")[0]
	if !ss.RenameProject("demo", "legacy-api", "legacy-api-v2") {
		t.Fatal("rename")
	}
	c.run("", "keys", "list", "-p", "demo/legacy-api").must(t, 0, "Production")
	c.run("", "keys", "update", "-p", "demo/legacy-api", key.Public, "--name", "Renamed").
		must(t, 1, "demo/legacy-api was renamed to demo/legacy-api-v2", "GitLab's error tracking settings still name demo/legacy-api", "Settings > Monitor > Error Tracking")
	if k := ss.Keys("demo", "legacy-api-v2")[0]; k.Label != key.Label {
		t.Fatalf("the key changed: %+v", k)
	}
}

// Sentry answers a key's DSN on its ingest host (o42.ingest.us.sentry.io)
// while SENTRY_DSN holds the same key as o42.ingest.sentry.io: audit names
// the variable for the key, and keys rotate --update-variables --yes
// points it at the new key before the old one goes.
func TestSentryKeyUnderAnotherHostSpellingFromTheCommands(t *testing.T) {
	c, ss := sentryCLIWith(t, mocksentry.Options{DSNHost: "o42.ingest.us.sentry.io"})
	var prod mocksentry.Key
	for _, k := range ss.Keys("demo", "legacy-api") {
		if k.Label == "Production" {
			prod = k
		}
	}
	c.run("", "api", "-X", "PUT", "projects/3/variables/SENTRY_DSN", "-f", "value=https://"+prod.Public+"@o42.ingest.sentry.io/2").must(t, 0)
	c.run("", "audit", "-p", "demo/legacy-api").must(t, 0, "SENTRY_DSN (all environments)")
	c.run("", "keys", "rotate", "-p", "demo/legacy-api", "--old", prod.Public, "--update-variables", "--yes", "--delete-with-unread-groups").
		must(t, 0, "which is deleted", "SENTRY_DSN (all environments) holds the new DSN")
	v := c.server.Variables(3)
	if len(v) != 1 || strings.Contains(v[0].Value, prod.Public) || !strings.Contains(v[0].Value, "@o42.ingest.us.sentry.io/2") {
		t.Fatalf("SENTRY_DSN: %+v", v)
	}
}

// keys list with an organization token (sntrys_, org:ci) says the token is
// an organization's and which token to make instead.
func TestSentryKeysWithAnOrganizationToken(t *testing.T) {
	c, _ := sentryCLI(t)
	c.env["SENTRY_AUTH_TOKEN"] = mocksentry.TokenOrgCI
	c.run("", "keys", "list", "-p", "demo/legacy-api").must(t, 1, "is an organization token", "cannot read or change a project's keys", "/settings/account/api/auth-tokens/")
}

// A key made with --rate-limit whose limit could not then be set (the key
// read before the change refused) is reported as made, with the command
// that sets its limit: the command does not crash on the missing answer.
func TestKeyCreatedWithoutItsRateLimit(t *testing.T) {
	t.Parallel()
	var ss *mocksentry.Server
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The key list and the create pass; reading one key is refused.
		if r.Method == http.MethodGet && regexp.MustCompile(`/keys/[0-9a-f]+/$`).MatchString(r.URL.Path) {
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"detail":"You do not have permission to perform this action."}`))
			return
		}
		ss.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	ss = mocksentry.New(mocksentry.Options{PublicURL: ts.URL})
	gl, err := mockserver.New(mockserver.Options{SentryURL: ts.URL, SentryDSN: ss.DSN("demo", "legacy-api", "Production")})
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, gl)
	c.env["SENTRY_AUTH_TOKEN"] = mocksentry.TokenAdmin
	c.env["SENTRY_URL"] = ts.URL
	before := len(ss.Keys("demo", "legacy-api"))
	r := c.run("", "keys", "create", "-p", "demo/legacy-api", "--name", "EU", "--rate-limit", "100/1h")
	r.must(t, 1, "The key was created, but its rate limit was not set", "errtrack keys update -p demo/legacy-api ", "--rate-limit 100/1h")
	if strings.Contains(r.stderr, "panic") || len(ss.Keys("demo", "legacy-api")) != before+1 {
		t.Fatalf("keys %d (were %d), stderr: %s", len(ss.Keys("demo", "legacy-api")), before, r.stderr)
	}
}
