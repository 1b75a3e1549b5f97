package main

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

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
