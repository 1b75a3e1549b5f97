package main

import (
	"encoding/json"
	"regexp"
	"testing"
)

// keys verify --group --json names the key a project's event went with as
// key_id alone: no old_key_id, as nothing was replaced; the table's KEYS
// column still names it.
func TestVerifyGroupJSONNamesOneKey(t *testing.T) {
	c := newCLI(t, nil)
	r := c.run("", "keys", "verify", "--group", "demo", "--include-subgroups", "--yes", "--json")
	var items []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &items); err != nil {
		t.Fatalf("%v\n%s%s", err, r.stdout, r.stderr)
	}
	sent := 0
	for _, it := range items {
		if it["result"] != "ok" {
			continue
		}
		sent++
		if _, ok := it["old_key_id"]; ok || it["key_id"] == nil {
			t.Errorf("%v: want key_id alone", it)
		}
	}
	if sent == 0 {
		t.Fatalf("no project's event was sent:\n%s%s", r.stdout, r.stderr)
	}
	table := c.run("", "keys", "verify", "--group", "demo", "--include-subgroups", "--yes")
	if !regexp.MustCompile(`(?m)^demo/web-shop\s+ok\s+1\s`).MatchString(table.stdout) {
		t.Errorf("the table's KEYS column lacks key 1:\n%s", table.stdout)
	}
}
