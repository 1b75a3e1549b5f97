package main

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

// demoPolicy is the policy the mock's demo breaks (docs/examples).
const demoPolicy = "../../docs/examples/errtrack.yaml"

// checkCLI is sentryCLI whose GitLab and Sentry count the requests made.
func checkCLI(t *testing.T) (*cli, *atomic.Int64) {
	t.Helper()
	c, n, _ := checkCLIFailing(t)
	return c, n
}

// checkCLIFailing is checkCLI whose GitLab answers every DELETE 503 while
// the flag it returns is set (a run interrupted after its keys were made).
func checkCLIFailing(t *testing.T) (*cli, *atomic.Int64, *atomic.Bool) {
	t.Helper()
	var n atomic.Int64
	var failDeletes atomic.Bool
	var ss *mocksentry.Server
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1); ss.ServeHTTP(w, r) }))
	t.Cleanup(ts.Close)
	// The Sentry's clock is the commands' (c.now): a key it makes then is
	// new, not as old as the days the test moved on.
	var clock atomic.Pointer[time.Time]
	ss = mocksentry.New(mocksentry.Options{PublicURL: ts.URL, Now: func() time.Time {
		if now := clock.Load(); now != nil && !now.IsZero() {
			return *now
		}
		return time.Now()
	}})
	gl, err := mockserver.New(mockserver.Options{SentryURL: ts.URL, SentryDSN: ss.DSN("demo", "legacy-api", "Production")})
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if failDeletes.Load() && r.Method == http.MethodDelete {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		gl.ServeHTTP(w, r)
	}))
	c.server = gl
	c.clock = &clock
	c.env["SENTRY_AUTH_TOKEN"] = mocksentry.TokenAdmin
	c.env["SENTRY_URL"] = ts.URL
	return c, &n, &failDeletes
}

func writePolicy(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "errtrack.yaml")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// The demo group breaks the demo policy: exit 3, the same findings as
// text lines, as JSON and as JUnit failures, each with the command that
// fixes it; the groups whose variables the token cannot read are named.
func TestCheckDemoGroupFindings(t *testing.T) {
	c, _ := checkCLI(t)
	args := []string{"check", "--group", "demo", "--include-subgroups", "--policy", demoPolicy}
	text := c.run("", args...)
	text.must(t, exitFindings, "no-dangling-dsn", "OLD_SENTRY_DSN", "integrated-error-tracking", "errtrack settings disable -p demo/web-shop",
		"rate-limit", "--rate-limit 1000/3600", "(created in Sentry 2026-", "demo/mobile-app, demo/web-shop (dsn-variables, no-dangling-dsn, unused-keys): the CI/CD variables of group demo could not be read: reading them needs the Owner role on the group")
	if n := strings.Count(text.stderr, "not checked:"); n != 2 {
		t.Fatalf("%d lines of what was not checked, want one per unread group:\n%s", n, text.stderr)
	}
	var report checkJSON
	js := c.run("", append(args, "--json")...)
	if js.code != exitFindings {
		t.Fatalf("--json exit %d\n%s", js.code, js.stderr)
	}
	if err := json.Unmarshal([]byte(js.stdout), &report); err != nil {
		t.Fatal(err, js.stdout)
	}
	lines := strings.Count(strings.TrimSpace(text.stdout), "\n") // less the header line
	if report.Findings == 0 || report.Findings != lines {
		t.Fatalf("JSON has %d findings, the text %d lines:\n%s", report.Findings, lines, text.stdout)
	}
	if len(report.Unchecked) == 0 || report.Unchecked[0].Group == "" {
		t.Fatalf("the unread groups are not in the JSON: %+v", report.Unchecked)
	}
	ju := c.run("", append(args, "--format", "junit")...)
	var suites struct {
		Failures int `xml:"failures,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string    `xml:"name,attr"`
				Failure *struct{} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(ju.stdout), &suites); err != nil || ju.code != exitFindings {
		t.Fatalf("exit %d, %v\n%s", ju.code, err, ju.stdout)
	}
	failed := 0
	for _, s := range suites.Suites {
		for _, tc := range s.Cases {
			if tc.Failure != nil {
				failed++
			}
		}
	}
	if failed != report.Findings || suites.Failures != failed {
		t.Fatalf("JUnit: %d failing cases (%d counted), want one per finding (%d)\n%s", failed, suites.Failures, report.Findings, ju.stdout)
	}
	if strings.Contains(js.stdout+text.stdout+ju.stdout, "glet_") {
		t.Fatal("a GitLab key's public key (half a DSN) is in the report")
	}
}

// check makes no more requests than audit over the same projects; in a CI
// job one more, the token's own scopes, for the least-privilege warning.
func TestCheckReadsNoMoreThanAudit(t *testing.T) {
	c, n := checkCLI(t)
	c.run("", "audit", "--group", "demo", "--include-subgroups") // keys seen once: both runs alike
	n.Store(0)
	c.run("", "audit", "--group", "demo", "--include-subgroups")
	audit := n.Swap(0)
	r := c.run("", "check", "--group", "demo", "--include-subgroups", "--policy", demoPolicy)
	r.must(t, exitFindings)
	if got := n.Swap(0); got > audit || audit == 0 || strings.Contains(r.stderr, "warning: the token") {
		t.Fatalf("check made %d requests, audit %d; outside CI no more, and no scope read:\n%s", got, audit, r.stderr)
	}
	// In a CI job (a scheduled check), a token broader than check needs
	// is said: one request more, the token's scopes.
	c.env["CI"] = "true"
	c.env["CI_SERVER_URL"] = c.url
	c.run("", "check", "--group", "demo", "--include-subgroups", "--policy", demoPolicy).must(t, exitFindings, "warning: the token has the api scope")
	if got := n.Load(); got > audit+1 {
		t.Fatalf("check in CI made %d requests, audit %d (+1 for the token's scopes)", got, audit)
	}
	c.env["GITLAB_TOKEN"] = mockserver.TokenReadOnly
	if r := c.run("", "check", "--group", "demo", "--include-subgroups", "--policy", demoPolicy); strings.Contains(r.stderr, "warning: the token") || r.code != exitFindings {
		t.Fatalf("a read_api token: exit %d\n%s", r.code, r.stderr)
	}
}

// An expired token: exit 4, said so.
func TestCheckExpiredTokenExits4(t *testing.T) {
	c, _ := checkCLI(t)
	c.env["GITLAB_TOKEN"] = mockserver.TokenExpired
	c.run("", "check", "--group", "demo", "--policy", demoPolicy).must(t, exitToken, "expired")
	c.run("", "check", "-p", "demo/web-shop", "--policy", demoPolicy).must(t, exitToken, "expired")
}

// A policy that holds but for what cannot be read: exit 1, the group
// named; one that holds where all is read: exit 0.
func TestCheckUnreadGroupExits1AndHoldingPolicyExits0(t *testing.T) {
	c, _ := checkCLI(t)
	vars := writePolicy(t, "version: 1\nrules:\n  no_dangling_dsn: true\n")
	c.run("", "check", "-p", "demo/web-shop", "--policy", vars).must(t, exitFailure, "not checked: demo/web-shop (no-dangling-dsn): the CI/CD variables of group demo could not be read")
	off := writePolicy(t, "version: 1\nrules:\n  integrated_error_tracking: off\n")
	c.run("", "check", "-p", "demo/paused", "--policy", off).must(t, exitOK, "The policy holds in 1 project.")
	c.run("", "check", "-p", "demo/web-shop", "--policy", off).must(t, exitFindings, "integrated error tracking is enabled")
}

// A policy file's mistakes are named by line, and nothing is read.
func TestCheckBadPolicyNamesItsLines(t *testing.T) {
	c, n := checkCLI(t)
	bad := writePolicy(t, "version: 1\nrules:\n  key_max_age: {days: -3}\n  unused_kyes: {days: 3}\n")
	r := c.run("", "check", "-p", "demo/web-shop", "--policy", bad)
	r.must(t, exitUsage, "errtrack.yaml:3: key_max_age.days must be a whole number of at least 1", `errtrack.yaml:4: unknown field "unused_kyes"`)
	if n.Load() != 0 {
		t.Fatalf("%d requests for a policy that cannot be used", n.Load())
	}
	// Without --policy, outside a repository: said what to give.
	c.run("", "check", "-p", "demo/web-shop").must(t, exitUsage, "--policy FILE")
}

// --schema prints the schema shipped in docs/.
func TestCheckSchemaIsTheDocsOne(t *testing.T) {
	c, _ := checkCLI(t)
	r := c.run("", "check", "--schema")
	want, err := os.ReadFile("../../docs/errtrack-policy.schema.json")
	if err != nil || r.code != 0 || r.stdout != string(want) {
		t.Fatalf("exit %d, %v: --schema differs from docs/errtrack-policy.schema.json", r.code, err)
	}
}

// check --fix mends what it can in one plan: the keys past their age that
// a project's variable holds are rotated (the variable repointed), the
// Sentry keys get the policy's rate limit. Interrupted (every GitLab
// DELETE failing) and run again, it goes on with the keys it made: one new
// key per project. A second check finds nothing of what was mendable.
func TestCheckFixMendsAndResumes(t *testing.T) {
	c, _, failDeletes := checkCLIFailing(t)
	pol := writePolicy(t, "version: 1\nrules:\n  key_max_age: {days: 90}\nscopes:\n  - project: demo/legacy-api\n    rules:\n      rate_limit: {count: 1000, window: 3600}\n")
	// The demo user is no Owner of group demo: its variables are unread,
	// and the fix deletes old keys there only when told to.
	args := []string{"check", "--group", "demo", "--include-subgroups", "--policy", pol, "--delete-with-unread-groups"}
	c.run("", args...).must(t, exitFindings, "rate-limit") // the keys first seen now
	c.now = time.Now().AddDate(0, 0, 100)
	dry := c.run("", append(args, "--fix", "--dry-run")...)
	dry.must(t, exitFindings, "key-max-age", "Dry run: nothing was changed", "set rate limit 1000/3600", "demo/web-shop", "demo/mobile/ios")
	if c.server.KeyCount(1) != 2 || c.server.KeyCount(7) != 1 {
		t.Fatalf("a dry run changed keys: %v %v", c.server.Keys(1), c.server.Keys(7))
	}
	c.run("n\n", append(args, "--fix")...).must(t, exitFindings, "Make the 4 changes planned above?", "Nothing was changed.")
	failDeletes.Store(true)
	c.run("", append(args, "--fix", "--yes")...).must(t, exitFailure, "2 of 3 projects failed", "New key", "no key is made twice")
	failDeletes.Store(false)
	c.run("", append(args, "--fix", "--yes")...).must(t, exitFindings, "earlier run left 2 projects unfinished", "4 findings it cannot mend remain")
	web, ios := c.server.Keys(1), c.server.Keys(7)
	if len(web) != 2 || web[0].ID == 1 || web[1].ID == 1 || len(ios) != 1 || ios[0].ID == 901 {
		t.Fatalf("keys after the fix: web-shop %v, ios %v: want one new key each, the old ones gone", web, ios)
	}
	var report checkJSON
	r := c.run("", append(args, "--json")...)
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil {
		t.Fatal(err, r.stdout)
	}
	for _, p := range report.Projects {
		for _, f := range p.Findings {
			if f.Mendable || f.Rule == "rate-limit" {
				t.Errorf("left after the fix: %s %+v", p.Project, f)
			}
		}
	}
}

// A Sentry key past its age and without a rate limit is rotated, and the
// rate limit goes to the key that replaces it (the old one is deleted):
// the plan says so, the fix goes through, a second check exits 0.
func TestCheckFixRateLimitsTheRotatedKey(t *testing.T) {
	c, _, _ := checkCLIFailing(t)
	pol := writePolicy(t, "version: 1\nrules:\n  key_max_age: {days: 90}\n  rate_limit: {count: 1000, window: 3600}\n")
	args := []string{"check", "-p", "demo/legacy-api", "--policy", pol}
	c.run("", args...).must(t, exitFindings, "key-max-age", "has no rate limit")
	// Group demo's variables are unread (no Owner): no old key goes there
	// unless told, and the rate limit then goes to the key that stays.
	c.run("", append(args, "--fix", "--dry-run")...).must(t, exitFindings, "not rotated: the variables of group demo", "set rate limit 1000/3600 on key \"Production\"")
	args = append(args, "--delete-with-unread-groups")
	fix := c.run("", append(args, "--fix", "--yes")...)
	fix.must(t, exitOK, "set rate limit 1000/3600 on the key that replaces key \"Production\"", "Fixed.")
	c.run("", args...).must(t, exitOK, "The policy holds in 1 project.")
}

// An unused key (no variable holds it, all of them read) past the policy's
// days is deleted by --fix; the key a variable holds is never touched,
// and check then exits 0.
func TestCheckFixDeletesUnusedKeysOnly(t *testing.T) {
	srv, err := mockserver.New(mockserver.Options{ScaleGroup: 2})
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, srv)
	c.server = srv
	c.run("", "keys", "create", "-p", "fleet/app-001").must(t, 0)
	if srv.KeyCount(2001) != 2 {
		t.Fatalf("keys %v", srv.Keys(2001))
	}
	pol := writePolicy(t, "version: 1\nrules:\n  unused_keys: {days: 30}\n")
	args := []string{"check", "--group", "fleet", "--policy", pol}
	c.run("", args...).must(t, exitOK, "The policy holds in 2 projects.")
	c.now = time.Now().AddDate(0, 0, 40)
	c.run("", args...).must(t, exitFindings, "unused-keys", "errtrack keys delete -p fleet/app-001")
	c.run("", append(args, "--fix", "--yes")...).must(t, exitOK, "delete key", "done.")
	if keys := srv.Keys(2001); len(keys) != 1 || keys[0].ID != 200001 {
		t.Fatalf("keys after the fix: %v, want the held key 200001 alone", keys)
	}
	if srv.KeyCount(2002) != 1 {
		t.Fatalf("app-002's held key went: %v", srv.Keys(2002))
	}
	c.run("", args...).must(t, exitOK, "The policy holds")
}

// test_event (opt-in) sends one event through each key a variable holds:
// accepted, the rule holds; refused (the instance's integrated error
// tracking switched off: its ingestion answers 401), a finding.
func TestCheckTestEventRule(t *testing.T) {
	c, _ := checkCLI(t)
	pol := writePolicy(t, "version: 1\nrules:\n  test_event: true\n")
	c.run("", "check", "-p", "demo/web-shop", "--policy", pol).must(t, exitOK, "The policy holds in 1 project.")
	if n := c.server.Envelopes(1); n != 1 {
		t.Fatalf("%d events sent through web-shop's key in use, want 1", n)
	}
	off, err := mockserver.New(mockserver.Options{NoIntegratedErrorTracking: true})
	if err != nil {
		t.Fatal(err)
	}
	c = newCLI(t, off)
	c.run("", "check", "-p", "demo/web-shop", "--policy", pol).must(t, exitFindings, "test-event", "a test event through key 1 was not accepted (HTTP 401)", "errtrack doctor -p demo/web-shop")
}

// A Sentry-backed project's keys read with an expired Sentry token: exit
// 4, the Sentry named; its key rules are not taken as holding.
func TestCheckExpiredSentryTokenExits4(t *testing.T) {
	c, _ := checkCLI(t)
	pol := writePolicy(t, "version: 1\nrules:\n  rate_limit: {required: true}\n")
	c.env["SENTRY_AUTH_TOKEN"] = mocksentry.TokenExpired
	r := c.run("", "check", "-p", "demo/legacy-api", "--policy", pol, "--json")
	r.must(t, exitToken, "a Sentry token failed", "not checked: demo/legacy-api (rate-limit)")
	if !strings.Contains(r.stderr, c.env["SENTRY_URL"]) && !strings.Contains(strings.ToLower(r.stderr), "sentry") {
		t.Fatalf("the Sentry is not named:\n%s", r.stderr)
	}
}

// Key changes sent to a Sentry are spaced to its key endpoints' 40
// requests a second (two per change); a cancelled wait ends at once.
func TestPaceSentrySpacesKeyChanges(t *testing.T) {
	var last time.Time
	start := time.Now()
	for range 3 {
		paceSentry(context.Background(), &last)
	}
	if took := time.Since(start); took < 2*sentryKeyGap {
		t.Fatalf("3 changes in %v, want at least %v", took, 2*sentryKeyGap)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	last = time.Now().Add(time.Hour)
	start = time.Now()
	paceSentry(ctx, &last)
	if took := time.Since(start); took > time.Second {
		t.Fatalf("a cancelled wait took %v", took)
	}
}
