package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
	sentrycontract "github.com/errtrack/errtrack/internal/contract/sentry"
)

// sentryContractCLI is the command line against the GitLab mock, whose
// demo/legacy-api reports to a Sentry answering as Sentry's and Relay's
// source shape it (internal/contract/sentry), not as the mock Sentry does.
// A request no fixture answers fails the test.
func sentryContractCLI(t *testing.T) *cli {
	t.Helper()
	c, _ := sentryContractCLIOf(t, "keys", "", nil)
	return c
}

// sentryContractCLIOf is sentryContractCLI against the fixture set named;
// dsnHost, when set, is the host SENTRY_DSN spells the Sentry's with (as
// a deploy may: Sentry builds a DSN's host as it answers). It returns the
// replay server too. seen, when set, sees each request to the Sentry
// before it is answered.
func sentryContractCLIOf(t *testing.T, set, dsnHost string, seen func(*http.Request)) (*cli, *sentrycontract.Server) {
	t.Helper()
	s, err := sentrycontract.NewServer(set)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if seen != nil {
			seen(r)
		}
		s.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	t.Cleanup(func() {
		if u := s.Unmatched(); len(u) > 0 {
			t.Errorf("requests no Sentry fixture answers: %v", u)
		}
	})
	host := strings.TrimPrefix(ts.URL, "http://")
	if dsnHost != "" {
		_, port, _ := strings.Cut(host, ":")
		host = dsnHost + ":" + port
	}
	dsn := "http://" + sentrycontract.Production + "@" + host + "/2"
	gl, err := mockserver.New(mockserver.Options{SentryURL: ts.URL, SentryDSN: dsn})
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, gl)
	c.server = gl
	c.env["SENTRY_AUTH_TOKEN"] = sentrycontract.Token
	c.env["SENTRY_URL"] = ts.URL
	return c, s
}

// A Sentry-backed project's keys, listed, made, renamed, disabled, deleted
// and checked against Sentry's answers: every request errtrack sends is
// one Sentry serves, and what it says of each answer is what the answer
// proves.
func TestSentryKeysAgainstSentrysAnswers(t *testing.T) {
	c := sentryContractCLI(t)
	p := "demo/legacy-api"

	r := c.run("", "keys", "list", "-p", p, "--json")
	r.must(t, 0, `"backend": "sentry"`)
	var keys []sentryKeyJSON
	if err := json.Unmarshal([]byte(r.stdout), &keys); err != nil || len(keys) != 2 || keys[0].Name != "Staging" || keys[1].Name != "Production" {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	c.run("", "keys", "list", "-p", p).must(t, 0, sentrycontract.Staging, "1000/1h", sentrycontract.Production)

	c.run("", "keys", "create", "-p", p, "--name", "New").must(t, 0, sentrycontract.Created, "New")
	c.run("", "keys", "update", "-p", p, sentrycontract.Production, "--name", "Renamed").must(t, 0, `Updated key "Renamed"`, "active")
	c.run("", "keys", "update", "-p", p, sentrycontract.Production, "--active=false").must(t, 0, "disabled (its events are refused)")
	c.run("", "keys", "delete", "-p", p, sentrycontract.Staging, "--yes").must(t, 0, `Deleted client key "Staging"`)

	// An active key's test event goes to /api/2/envelope/ and Relay
	// accepts it: accepted by ingestion, no more.
	c.run("", "keys", "verify", "-p", p, sentrycontract.Production, "--yes").
		must(t, 0, `Key "Production"`, "the test event was accepted by ingestion (HTTP 200 by ", "/api/2/envelope/)")
	// A key past its rate limit: Relay's 429 is worded as the limit, with
	// the wait, not as a dead key.
	r = c.run("", "keys", "verify", "-p", p, sentrycontract.Staging, "--yes")
	r.must(t, 1, "ingestion rate-limited the test event (HTTP 429, limit: key key_quota); try again in 40m0s", "The key was not refused")
	if strings.Contains(r.stderr, "inactive or deleted") {
		t.Fatalf("a rate limit worded as a dead key: %s", r.stderr)
	}
}

// audit, doctor (with a test event per key) and export of a Sentry-backed
// project, against Sentry's answers: the keys and the DSN SENTRY_DSN holds
// matched, ingestion probed with a preflight that sends no event, and the
// test events worded by what Relay's answers prove.
func TestSentryProjectAgainstSentrysAnswers(t *testing.T) {
	c := sentryContractCLI(t)
	p := "demo/legacy-api"
	c.run("", "audit", "-p", p).must(t, 0, "keys of the Sentry project demo/legacy-api", sentrycontract.Production+"  SENTRY_DSN (all environments)", "2026-08-28")
	// A Sentry key's age is its dateCreated, and the JSON says so.
	c.run("", "audit", "-p", p, "--json").must(t, 0, `"first_seen": "2026-08-28T09:14:03.536Z"`, `"first_seen_source": "sentry"`)
	c.run("", "doctor", "-p", p).must(t, 0, "2 active client keys", "answers (no event sent", "1 variable holds a current DSN")
	r := c.run("", "doctor", "-p", p, "--send-test-event")
	r.must(t, 0, "the test event was accepted by ingestion at", "warn  ingestion (key \"Staging\"", "rate-limited the test event (HTTP 429, limit: key key_quota)")
	if strings.Contains(r.stdout+r.stderr, "inactive or deleted") {
		t.Fatalf("a rate limit worded as a dead key:\n%s%s", r.stdout, r.stderr)
	}
	// projects list counts a Sentry-backed project's keys in Sentry (two
	// here), never GitLab's 0; without a Sentry token the count is unknown.
	c.run("", "projects", "list", "--json").must(t, 0, `"keys": 2,
      "keys_known": true,
      "keys_source": "sentry"`)
	noToken := *c
	noToken.env = map[string]string{}
	for k, v := range c.env {
		if k != "SENTRY_AUTH_TOKEN" {
			noToken.env[k] = v
		}
	}
	noToken.run("", "projects", "list", "--json").must(t, 0, `"keys": null,
      "keys_known": false,
      "keys_source": "sentry"`)
	r = c.run("", "export", "-p", p)
	r.must(t, 0, `"backend": "sentry"`, `"public_key_start": "`+sentrycontract.Production[:8]+`"`, `"variable": "SENTRY_DSN"`)
	if strings.Contains(r.stdout, sentrycontract.Production) {
		t.Fatalf("export without --with-public-keys holds the public key:\n%s", r.stdout)
	}
	r = c.run("", "export", "-p", p, "--with-public-keys")
	r.must(t, 0, `"public_key": "`+sentrycontract.Production+`"`)
}

// keys rotate of a Sentry-backed project against Sentry's answers: the
// new key made, found in the listing that follows, SENTRY_DSN pointed at
// it, a test event through it accepted by ingestion, then the old key
// deleted.
func TestSentryRotationAgainstSentrysAnswers(t *testing.T) {
	c := sentryContractCLI(t)
	c.run("", "keys", "rotate", "-p", "demo/legacy-api", "--old", sentrycontract.Production, "--name", "New", "--update-variables", "--verify", "--yes", "--delete-with-unread-groups").
		must(t, 0, "The test event through the new DSN was accepted by ingestion (HTTP 200)",
			`Rotated: new key "New" (9a8b7c6d5…) replaces key "Production" (0c3d5a7b9…), which is deleted`, "SENTRY_DSN (all environments) holds the new DSN")
	var held []string
	for _, v := range c.server.Variables(3) { // demo/legacy-api
		if v.Key == "SENTRY_DSN" {
			held = append(held, v.Value)
		}
	}
	if len(held) != 1 || !strings.HasPrefix(held[0], "http://"+sentrycontract.Created+"@") {
		t.Fatalf("SENTRY_DSN does not hold the new key's DSN (%d variables of that name)", len(held))
	}

	// --soft: the old key is disabled (PUT isActive false), not deleted.
	c = sentryContractCLI(t)
	c.run("", "keys", "rotate", "-p", "demo/legacy-api", "--old", sentrycontract.Production, "--name", "New", "--soft", "--update-variables", "--verify", "--yes", "--delete-with-unread-groups").
		must(t, 0, "Rotated softly", `old key "Production" (0c3d5a7b9…) is disabled`)
}

// A Sentry project renamed since GitLab's settings named it, against
// Sentry's answers (ProjectMoved, 302, on every method): the keys are
// listed at the new slug, and an update stops before a second PUT, naming
// the rename, the new slug and GitLab's settings page; the project read
// that tells the rename is answered too.
func TestSentryRenamedProjectAgainstSentrysAnswers(t *testing.T) {
	c, _ := sentryContractCLIOf(t, "moved", "", nil)
	p := "demo/legacy-api"
	c.run("", "keys", "list", "-p", p).must(t, 0, "Production", "Staging")
	c.run("", "keys", "update", "-p", p, sentrycontract.Production, "--name", "Renamed").
		must(t, 1, "demo/legacy-api was renamed to demo/legacy-api-v2", "GitLab's error tracking settings still name demo/legacy-api", "Settings > Monitor > Error Tracking")
}
