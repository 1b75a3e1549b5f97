package main

import (
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// newVersionCLI runs the commands against a mock server behaving as one
// GitLab release (gitlab-api.md §12).
func newVersionCLI(t *testing.T, opts mockserver.Options) *cli {
	t.Helper()
	s, err := mockserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, s)
	c.server = s
	return c
}

// Each version class: what works, and the words for what does not.
func TestVersionClasses(t *testing.T) {
	t.Parallel()
	t.Run("15.4: no PUT settings", func(t *testing.T) {
		c := newVersionCLI(t, mockserver.Options{GitLabVersion: "15.4"})
		c.run("", "settings", "create", "-p", "demo/mobile-app", "--active=true", "--integrated=true").must(t, 1,
			"GitLab 15.4 has no API to create error tracking settings (added in 15.10): create them in the web UI, Settings > Monitor > Error Tracking")
		c.run("", "settings", "disable", "-p", "demo/web-shop").must(t, 0)
		c.run("", "keys", "list", "-p", "demo/web-shop").must(t, 0, "glet_")
		c.run("", "status").must(t, 0, "GitLab:  15.4")
	})
	t.Run("14.1: no client keys, no integrated", func(t *testing.T) {
		c := newVersionCLI(t, mockserver.Options{GitLabVersion: "14.1"})
		c.run("", "keys", "list", "-p", "demo/web-shop").must(t, 1,
			"GitLab 14.1 has no client keys for error tracking (added in 14.3)")
		r := c.run("", "settings", "get", "-p", "demo/legacy-api", "--json")
		r.must(t, 0, `"active": true`)
		if strings.Contains(r.stdout, "integrated") {
			t.Fatalf("a 14.1 server has no integrated field, yet errtrack printed one:\n%s", r.stdout)
		}
	})
	t.Run("12.7: no PATCH", func(t *testing.T) {
		c := newVersionCLI(t, mockserver.Options{GitLabVersion: "12.7"})
		c.run("", "settings", "enable", "-p", "demo/legacy-api").must(t, 1,
			"GitLab 12.7 has no API to enable or disable error tracking settings (added in 12.8)")
	})
	t.Run("15.0: legacy DSN form", func(t *testing.T) {
		c := newVersionCLI(t, mockserver.Options{GitLabVersion: "15.0"})
		c.run("", "keys", "list", "-p", "1").must(t, 0, "/api/v4/error_tracking/collector/1")
		// The legacy form's ingestion path takes the test event too.
		c.run("", "keys", "verify", "-p", "1", "1", "--yes").must(t, 0, "/api/v4/error_tracking/collector/api/1/envelope", "accepted by ingestion (HTTP 200")
	})
	t.Run("flag off", func(t *testing.T) {
		c := newVersionCLI(t, mockserver.Options{NoIntegratedErrorTracking: true})
		c.run("", "settings", "create", "-p", "demo/mobile-app", "--active=true", "--integrated=true").must(t, 1,
			"Integrated error tracking is not available for this project on this GitLab", "external Sentry")
		c.run("", "settings", "get", "-p", "demo/web-shop").must(t, 0, "Integrated:    no", "errors are not collected")
		// PATCH answers 200 and keeps integrated off: a failure for a script.
		r := c.run("", "settings", "update", "-p", "5", "--active=true", "--integrated=true")
		r.must(t, 1, "GitLab kept integrated error tracking off for demo/paused", "feature flag")
		if !strings.Contains(r.stdout, "Integrated:    no") {
			t.Fatalf("the record is not printed:\n%s", r.stdout)
		}
	})
}
