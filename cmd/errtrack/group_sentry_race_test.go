package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

// sentryFleetCLI is the command line against a mock GitLab whose group
// sentry-fleet holds n projects, each reporting to its own project of a
// mock Sentry (mock-server --scale-sentry n).
func sentryFleetCLI(t *testing.T, n int) (*cli, *mocksentry.Server) {
	t.Helper()
	var ss *mocksentry.Server
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ss.ServeHTTP(w, r) }))
	t.Cleanup(ts.Close)
	ss = mocksentry.New(mocksentry.Options{PublicURL: ts.URL, ScaleProjects: n})
	gl, err := mockserver.New(mockserver.Options{SentryURL: ts.URL, SentryDSN: ss.DSN("demo", "legacy-api", "Production"),
		ScaleSentry: n, SentryDSNOf: func(slug string) string { return ss.DSN("demo", slug, "Default") }})
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, gl)
	c.server = gl
	c.env["SENTRY_AUTH_TOKEN"] = mocksentry.TokenAdmin
	c.env["SENTRY_URL"] = ts.URL
	return c, ss
}

// A group of Sentry-backed projects is planned, rotated and verified with
// the group layer's workers resolving several Sentry projects at once (run
// under go test -race: a command's state written from the workers is a
// race). Each project ends with one new key, its SENTRY_DSN holding the new
// DSN, the old key deleted, and the verify's event sent through the new key.
func TestGroupOfSentryProjectsRotatesAndVerifiesTogether(t *testing.T) {
	t.Parallel()
	const n = 6 // twice the 3 projects the group layer runs at a time
	c, ss := sentryFleetCLI(t, n)
	old := map[string]string{}
	for i := 1; i <= n; i++ {
		keys := ss.Keys("demo", mocksentry.FleetSlug(i))
		if len(keys) != 1 {
			t.Fatalf("%s: %d keys", mocksentry.FleetSlug(i), len(keys))
		}
		old[mocksentry.FleetSlug(i)] = keys[0].Public
	}
	args := []string{"keys", "rotate", "--group", "sentry-fleet", "--ci-variable", "SENTRY_DSN"}
	// Plans are cheap and each resolves every project's Sentry in the
	// workers: several give -race more chances to see two at once.
	for range 8 {
		c.run("", append(args, "--dry-run")...).must(t, 0, "Group sentry-fleet: 6 of 6 projects to rotate", `rotate key "Default"`, "Dry run: nothing was changed")
	}
	r := c.run("", append(args, "--yes", "--json")...)
	r.must(t, 0, "[6/6]")
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
	if changed != n {
		t.Fatalf("%d of %d changed:\n%s\n%s", changed, n, r.stdout, r.stderr)
	}
	for i := 1; i <= n; i++ {
		slug := mocksentry.FleetSlug(i)
		keys := ss.Keys("demo", slug)
		if len(keys) != 1 || keys[0].Public == old[slug] {
			t.Fatalf("%s keys after the rotation: %+v", slug, keys)
		}
		vars := c.server.Variables(int64(2100 + i))
		if len(vars) != 1 || !strings.Contains(vars[0].Value, keys[0].Public) {
			t.Fatalf("%s: SENTRY_DSN does not hold the new key's DSN", slug)
		}
	}
	r = c.run("", "keys", "verify", "--group", "sentry-fleet", "--yes", "--json")
	r.must(t, 0, `"project": "sentry-fleet/app-001"`, `"project": "sentry-fleet/app-006"`)
	for i := 1; i <= n; i++ {
		slug := mocksentry.FleetSlug(i)
		if k := ss.Keys("demo", slug)[0]; ss.Events(k.Public) != 1 {
			t.Fatalf("%s: %d events through the new key:\n%s\n%s", slug, ss.Events(k.Public), r.stdout, r.stderr)
		}
	}
}
