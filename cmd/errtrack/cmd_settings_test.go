package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestSettingsCommands(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "settings", "get", "--project", "demo/legacy-api").must(t, 0, "Active:", "yes", "Legacy API", "https://sentry.example.com/demo/legacy-api/")
	r := c.run("", "settings", "get", "-p", "1", "--json")
	r.must(t, 0)
	var s map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil || s["active"] != true || s["integrated"] != true {
		t.Fatalf("json %s: %v", r.stdout, err)
	}
	if _, ok := s["errtracker_external_url"]; !ok || len(s) != 5 {
		t.Fatalf("not the specification's object: %s", r.stdout)
	}
	c.run("", "settings", "get", "-p", "2").must(t, 1, "not configured")
	c.run("", "settings", "create", "-p", "2", "--active=true", "--integrated=true").must(t, 0, "Integrated:", "yes")
	if c.server.KeyCount(2) != 1 {
		t.Fatal("no key auto-created")
	}
	c.run("", "settings", "create", "-p", "4", "--active=true", "--integrated=true").must(t, 1, "not available for this project on this GitLab")
	c.run("", "settings", "create", "-p", "2", "--active=true").must(t, 2, "needs both")
	c.run("", "settings", "update", "-p", "2").must(t, 2, "needs --active")
	c.run("", "settings", "update", "-p", "2", "--active=false", "--json").must(t, 0, `"active": false`)
	c.run("", "settings", "enable", "-p", "5").must(t, 0, "Active:        yes")
	c.run("", "settings", "disable", "-p", "5", "--json").must(t, 0, `"active": false`)
	c.run("", "settings", "update", "-p", "1", "--active=true", "--integrated=false").must(t, 1, "refused the change", "api url is a required field")
}

// settings enable --group creates integrated settings where there are
// none, enables disabled ones, leaves Sentry-backed ones on Sentry, and
// skips what the user does not maintain; a dry run changes nothing.
func TestGroupSettingsEnable(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	args := []string{"settings", "enable", "--group", "demo", "--include-subgroups"}
	c.run("", append(args, "--dry-run")...).must(t, 0, "demo/mobile-app", "create integrated settings, enabled", "demo/paused", "demo/mobile/android", "already enabled", "not a Maintainer", "Dry run")
	c.run("", "settings", "get", "-p", "5").must(t, 0, "Active:        no")
	// demo/on-prem has no integrated error tracking to create (the flag is
	// off there): that project fails, and says why; the others change.
	r := c.run("", append(args, "--yes", "--json")...)
	r.must(t, 1, `"result": "changed"`, "demo/on-prem: failed. Integrated error tracking is not available", "1 of 8 projects failed")
	c.run("", "settings", "get", "-p", "5").must(t, 0, "Active:        yes")
	c.run("", "settings", "get", "-p", "8").must(t, 0, "Active:        yes")
	c.run("", "settings", "get", "-p", "3").must(t, 0, "Integrated:    no")                 // still on Sentry
	c.run("", append(args, "--yes")...).must(t, 1, "Group demo: 1 of 8 projects to enable") // on-prem only, again
	c.run("", "settings", "disable", "--group", "demo", "--yes").must(t, 0, "[1/")
	c.run("", "settings", "get", "-p", "1").must(t, 0, "Active:        no")
	c.run("", "settings", "get", "-p", "7").must(t, 0, "Active:        yes") // in a subgroup, not included
}

// A project is named by its path in the settings record, given by ID too;
// settings create names the first client key GitLab created.
func TestSettingsNameTheProjectAndTheFirstKey(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "settings", "get", "-p", "1").must(t, 0, "Project:       demo/web-shop")
	r := c.run("", "settings", "create", "-p", "2", "--active=true", "--integrated=true")
	r.must(t, 0, "Project:       demo/mobile-app", "GitLab created the first client key, ")
	if c.server.KeyCount(2) != 1 || !strings.Contains(r.stdout, fmt.Sprintf("key, %d:", c.server.Keys(2)[0].ID)) {
		t.Fatalf("keys %v, output %s", c.server.Keys(2), r.stdout)
	}
	c.run("", "settings", "disable", "-p", "1").must(t, 0, "Project:       demo/web-shop")
	if r := c.run("", "settings", "enable", "-p", "1"); strings.Contains(r.stdout, "GitLab created") {
		t.Fatalf("no key was created, yet: %s", r.stdout)
	}
}
