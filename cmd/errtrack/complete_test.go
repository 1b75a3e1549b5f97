package main

import (
	"strings"
	"testing"

	"github.com/errtrack/errtrack/internal/config"
)

// Tab completes --project from the recent projects and the server's search,
// and key IDs for keys delete.
func TestCompletion(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "keys", "list", "-p", "demo/paused").must(t, 0) // remembers the host
	r := c.run("", "__complete", "keys", "list", "--project", "demo/we")
	r.must(t, 0, "demo/web-shop\tWeb Shop")
	if strings.Contains(r.stdout, "demo/paused") {
		t.Fatalf("a project that does not match: %s", r.stdout)
	}
	c.run("", "__complete", "settings", "get", "--project", "").must(t, 0, "demo/legacy-api", "demo/web-shop")
	c.run("", "__complete", "keys", "delete", "--project", "1", "").must(t, 0, "1\tglet_", "2\tglet_")
	c.run("", "__complete", "keys", "verify", "--project", "1", "").must(t, 0, "1\tglet_", "2\tglet_")
	// Without a token, the recent projects still complete.
	c.env["GITLAB_TOKEN"] = ""
	c.store.m = map[string]string{}
	cfg := config.Config{Recent: map[string][]config.Recent{c.url: {{ID: 5, Path: "demo/paused"}}}, LastHost: c.url}
	cfg.Save(c.cfg)
	c.run("", "__complete", "keys", "list", "--project", "").must(t, 0, "demo/paused\trecent")
}
