package main

import (
	"strings"
	"testing"
	"time"
)

// audit lists where each DSN is used, fails on a dangling variable and
// passes once it is fixed; --json never shows a value.
func TestAuditCommand(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	r := c.run("", "audit", "-p", "demo/mobile/ios")
	r.must(t, 1, "901", "SENTRY_DSN (all environments)", "error", "OLD_SENTRY_DSN (environment staging) holds the DSN of a key that no longer exists", "1 error finding")
	r = c.run("", "audit", "-p", "demo/mobile/ios", "--json")
	r.must(t, 1, `"severity": "error"`, `"variable": "SENTRY_DSN"`)
	if strings.Contains(r.stdout, "@") {
		t.Fatalf("a DSN in the JSON: %s", r.stdout)
	}
	c.run("", "api", "DELETE", "projects/7/variables/OLD_SENTRY_DSN").must(t, 0)
	c.run("", "audit", "-p", "demo/mobile/ios").must(t, 0, "SENTRY_DSN (all environments)")
	// android's key: no variable the token can read holds it, and the
	// groups' cannot be read (the demo user owns neither): unknown.
	r = c.run("", "audit", "--group", "demo/mobile")
	r.must(t, 0, "demo/mobile/android", "unknown: the CI/CD variables of group demo could not be read", "skipped demo/mobile/kiosk: you are a Developer here")
	if strings.Contains(r.stdout, "referenced by no CI/CD variable") {
		t.Fatalf("a key whose use is unknown is called unused: %s", r.stdout)
	}
	// ops: a hidden variable and a dotenv file hold ops/api's DSNs; the
	// project shared into ops is audited; the archived one is skipped.
	r = c.run("", "audit", "--group", "ops", "--json")
	r.must(t, 0, `"project": "partner/sdk"`, `"use_unknown": [`, `"hidden variable SENTRY_DSN (all environments)"`, `"line": "SENTRY_DSN"`, "skipped ops/old-dashboard: archived")
	if strings.Contains(r.stdout, "partner/docs") || strings.Contains(r.stdout, "@") {
		t.Fatalf("a project below Maintainer audited, or a DSN printed: %s", r.stdout)
	}
}

// audit says when errtrack first saw each key, exactly for the keys it
// created, and warns of an unused key older than the keys in use.
func TestAuditFirstSeen(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.env["ERRTRACK_STATE_DIR"] = t.TempDir()
	c.now = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	c.run("", "audit", "-p", "1", "--json").must(t, 0, `"first_seen": "2026-11-01T12:00:00Z"`)
	c.now = c.now.AddDate(0, 0, 3)
	c.run("", "keys", "rotate", "-p", "demo/web-shop", "--old", "2", "--yes", "--delete-with-unread-groups").must(t, 0)
	c.now = c.now.AddDate(0, 0, 1)
	r := c.run("", "audit", "-p", "1")
	r.must(t, 0, "2026-11-01", "2026-11-04 (created)")
	// SENTRY_DSN holds key 1, first seen with key 2 on day one; key 4 is
	// newer and unused: nothing older and unused, so no warning.
	if strings.Contains(r.stdout, "older than the keys in use") {
		t.Fatal(r.stdout)
	}
}
