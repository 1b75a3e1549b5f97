package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

// The permissions table holds against the mock: each command it says needs
// only read_api runs with a read_api token; each it says needs api is
// refused that token for its scope; each Sentry scope it names is enough
// and the one below it is not.
func TestPermissionsTableHoldsAgainstTheMock(t *testing.T) {
	pol := writePolicy(t, "version: 1\nrules:\n  integrated_error_tracking: off\n")
	runs := map[string][]string{
		"settings get":     {"settings", "get", "-p", "demo/web-shop"},
		"settings disable": {"settings", "disable", "-p", "demo/web-shop"},
		"keys list":        {"keys", "list", "-p", "demo/web-shop"},
		"keys create":      {"keys", "create", "-p", "demo/web-shop"},
		"keys delete":      {"keys", "delete", "-p", "demo/web-shop", "2", "--yes"},
		"keys rotate":      {"keys", "rotate", "-p", "demo/web-shop", "--old", "1", "--ci-variable", "SENTRY_DSN", "--yes"},
		"audit":            {"audit", "-p", "demo/web-shop"},
		"check":            {"check", "-p", "demo/paused", "--policy", pol},
		"check --fix":      {"check", "-p", "demo/web-shop", "--policy", writePolicy(t, "version: 1\nrules:\n  key_max_age: {days: 1}\n"), "--fix", "--yes", "--delete-with-unread-groups"},
		"doctor":           {"doctor", "-p", "demo/web-shop"},
		"export":           {"export", "--group", "demo"},
	}
	seen := 0
	for name, args := range runs {
		p, ok := permissionFor(name)
		if !ok {
			t.Fatalf("no row for %q", name)
		}
		seen++
		c, _ := checkCLI(t)
		c.env["GITLAB_TOKEN"] = mockserver.TokenReadOnly
		if name == "check --fix" {
			c.run("", "check", "-p", "demo/web-shop", "--policy", pol) // the keys first seen
			c.now = time.Now().AddDate(0, 0, 3)
		}
		r := c.run("", args...)
		refused := strings.Contains(r.stderr, "lacks the api scope")
		switch p.scope {
		case "read_api":
			if refused {
				t.Errorf("%s: the table says read_api, the mock refused it:\n%s", name, r.stderr)
			}
		case "api":
			if !refused {
				t.Errorf("%s: the table says api, a read_api token was not refused (exit %d):\n%s%s", name, r.code, r.stdout, r.stderr)
			}
		}
	}
	if seen < 10 {
		t.Fatalf("%d commands tried", seen)
	}
	// Sentry: project:read lists, project:write updates but does not
	// delete, project:admin deletes.
	c, _ := checkCLI(t)
	for _, tc := range []struct {
		command, token string
		args           []string
		refused        bool
	}{
		{"keys list", mocksentry.TokenRead, []string{"keys", "list", "-p", "demo/legacy-api"}, false},
		{"keys update", mocksentry.TokenRead, []string{"keys", "update", "-p", "demo/legacy-api", "PUBLIC_KEY", "--rate-limit", "10/60"}, true},
		{"keys update", mocksentry.TokenWrite, []string{"keys", "update", "-p", "demo/legacy-api", "PUBLIC_KEY", "--rate-limit", "10/60"}, false},
		{"keys delete", mocksentry.TokenWrite, []string{"keys", "delete", "-p", "demo/legacy-api", "PUBLIC_KEY", "--yes"}, true},
	} {
		p, _ := permissionFor(tc.command)
		c.env["SENTRY_AUTH_TOKEN"] = tc.token
		args := tc.args
		for i, a := range args {
			if a == "PUBLIC_KEY" {
				args = append(args[:i:i], append([]string{stagingKey(t, c)}, args[i+1:]...)...)
			}
		}
		r := c.run("", args...)
		if (r.code != 0) != tc.refused {
			t.Errorf("%s with %s (table: %v): exit %d\n%s", tc.command, tc.token, p.sentry, r.code, r.stderr)
		}
	}
}

// stagingKey is the public key of the demo Sentry key "Staging".
func stagingKey(t *testing.T, c *cli) string {
	t.Helper()
	saved := c.env["SENTRY_AUTH_TOKEN"]
	c.env["SENTRY_AUTH_TOKEN"] = mocksentry.TokenAdmin
	defer func() { c.env["SENTRY_AUTH_TOKEN"] = saved }()
	r := c.run("", "keys", "list", "-p", "demo/legacy-api", "--json")
	var keys []sentryKeyJSON
	if err := json.Unmarshal([]byte(r.stdout), &keys); err != nil {
		t.Fatal(err, r.stdout)
	}
	for _, k := range keys {
		if k.Name == "Staging" {
			return k.PublicKey
		}
	}
	t.Fatalf("no key Staging: %s", r.stdout)
	return ""
}

func TestAuthPermissionsPrintsARow(t *testing.T) {
	c := newCLI(t, nil)
	c.run("", "auth", "permissions", "check").must(t, 0, "read_api", "read_variable", "project:read")
	c.run("", "auth", "permissions", "check", "--fix").must(t, 0, "check --fix  api", "update_variable")
	c.run("", "auth", "permissions", "keys", "rotate").must(t, 0, "create_error_tracking_client_key", "update_variable", "project:admin")
	c.run("", "auth", "permissions", "nope").must(t, 2, "no permissions listed")
}
