package main

import (
	"encoding/json"
	"testing"
)

func TestKeysCommands(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "keys", "list", "-p", "1").must(t, 0, "ID", "PUBLIC KEY", "glet_", "/errortracking/api/v1/projects/1")
	r := c.run("", "keys", "list", "-p", "1", "--json")
	var keys []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &keys); err != nil || len(keys) != 2 || keys[0]["errtracker_dsn"] == nil {
		t.Fatalf("json %s: %v", r.stdout, err)
	}
	c.run("", "keys", "list", "-p", "2", "--json").must(t, 0, "[]")
	c.run("", "keys", "list", "-p", "2").must(t, 0, "No client keys")
	r = c.run("", "keys", "create", "-p", "1", "--json")
	var k map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &k); err != nil || k["id"].(float64) != 4 {
		t.Fatalf("json %s: %v", r.stdout, err)
	}
	c.run("", "keys", "create", "-p", "1").must(t, 0, "ID:", "5", "DSN:")

	c.run("", "keys", "delete", "-p", "1", "4").must(t, 2, "pass --yes")
	if c.server.KeyCount(1) != 4 {
		t.Fatal("deleted without confirmation")
	}
	c.tty = true
	c.run("n\n", "keys", "delete", "-p", "1", "4").must(t, 0, "Delete client key 4 (glet_", "Nothing deleted")
	c.run("\n", "keys", "delete", "-p", "1", "4").must(t, 0, "Nothing deleted")
	if c.server.KeyCount(1) != 4 {
		t.Fatal("deleted after No")
	}
	c.run("y\n", "keys", "delete", "-p", "1", "4").must(t, 0, "Deleted client key 4")
	c.tty = false
	c.run("", "keys", "delete", "-p", "1", "5", "--yes", "--json").must(t, 0, `"id": 5`)
	c.run("", "keys", "delete", "-p", "1", "5", "--yes").must(t, 1, "Project demo/web-shop has no client key 5: nothing was deleted")
	c.tty = true
	c.run("y\n", "keys", "delete", "-p", "1", "99").must(t, 1, "Project demo/web-shop has no client key 99: nothing was deleted")
	c.tty = false
	c.run("", "keys", "delete", "-p", "1", "abc", "--yes").must(t, 2, "is not a key: a GitLab key's ID, or a Sentry key's public key")
	c.run("", "keys", "delete", "-p", "1").must(t, 2, "exactly one KEY_ID")
}
