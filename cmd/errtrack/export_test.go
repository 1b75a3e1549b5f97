package main

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// export --format yaml round-trips through a YAML parser, holds every
// project, key and use, and no DSN or variable value unless asked.
func TestExportInventory(t *testing.T) {
	c, _ := sentryCLI(t)
	r := c.run("", "export", "--group", "demo", "--include-subgroups", "--format", "yaml")
	r.must(t, 0)
	var inv []exportProject
	if err := yaml.Unmarshal([]byte(r.stdout), &inv); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	byPath := map[string]exportProject{}
	for _, p := range inv {
		byPath[p.Project] = p
	}
	web, legacy := byPath["demo/web-shop"], byPath["demo/legacy-api"]
	if len(web.Keys) != 2 || web.ErrorTracking.Backend != "gitlab" || len(web.Keys[0].UsedIn)+len(web.Keys[1].UsedIn) != 1 {
		t.Fatalf("web-shop: %+v", web)
	}
	if legacy.ErrorTracking.Backend != "sentry" || len(legacy.Keys) != 2 || legacy.Keys[0].Name == "" {
		t.Fatalf("legacy-api: %+v", legacy)
	}
	for _, bad := range []string{"dsn:", "http://glet_", "value"} {
		if strings.Contains(r.stdout, bad) {
			t.Fatalf("the inventory holds %q:\n%s", bad, r.stdout)
		}
	}
	c.run("", "export", "-p", "demo/web-shop", "--with-dsn").must(t, 0, `"dsn": "http://glet_`)
	c.run("", "export", "-p", "demo/web-shop", "--format", "xml").must(t, 2, "json or yaml")
}
