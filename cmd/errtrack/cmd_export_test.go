package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// export --format yaml round-trips through a YAML parser, holds every
// project, key and use, and no DSN or variable value unless asked.
func TestExportInventory(t *testing.T) {
	t.Parallel()
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

// A ledger that cannot be opened is said once: an export and a delete go
// on without it, warning; a rotation stops before it changes anything.
func TestUnopenableLedgerSaidOnce(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	file := filepath.Join(t.TempDir(), "not-a-folder")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	c.env["ERRTRACK_STATE_DIR"] = file
	r := c.run("", "export", "-p", "demo/web-shop")
	r.must(t, 0, "warning: the export says nothing of migrations under way")
	if n := strings.Count(r.stderr, "rotation ledger"); n != 1 {
		t.Fatalf("said %d times:\n%s", n, r.stderr)
	}
	r = c.run("", "keys", "delete", "-p", "demo/web-shop", "2", "--yes")
	r.must(t, 0, "warning: unfinished rotations of key 2", "Deleted client key 2")
	if n := strings.Count(r.stderr, "rotation ledger"); n != 1 {
		t.Fatalf("said %d times:\n%s", n, r.stderr)
	}
	r = c.run("", "keys", "rotate", "-p", "demo/web-shop", "--old", "1", "--keep-variables", "--yes")
	r.must(t, 1, "Nothing was changed")
	if c.server.KeyCount(1) != 1 {
		t.Fatalf("keys %v", c.server.Keys(1))
	}
}

// export takes --json as every command does, and refuses flags that ask
// for two things.
func TestExportFlags(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "export", "-p", "demo/web-shop", "--json").must(t, 0, `"project": "demo/web-shop"`)
	c.run("", "export", "-p", "demo/web-shop", "--json", "--format", "yaml").must(t, 2, "two formats")
	c.run("", "export", "-p", "demo/web-shop", "--include-subgroups").must(t, 2, "goes with --group")
}

// A key's public key and its project ID rebuild the DSN exactly (an
// integrated key's, and a Sentry key's), so an export without --with-dsn
// leaves the public keys out too: it names each key by ID (or a Sentry
// key's name) and the start of its public key, which rebuilds nothing.
// --with-public-keys adds them; the help says what they are.
func TestExportWithoutDSNHoldsNoPublicKey(t *testing.T) {
	c, _ := sentryCLI(t)
	r := c.run("", "export", "--group", "demo", "--include-subgroups")
	r.must(t, 0)
	var inv []exportProject
	if err := json.Unmarshal([]byte(r.stdout), &inv); err != nil {
		t.Fatal(err)
	}
	for _, p := range inv {
		for _, k := range p.Keys {
			if k.PublicKey != "" {
				t.Fatalf("%s: key %d's public key is in the export: %s", p.Project, k.ID, k.PublicKey)
			}
			if k.PublicKeyStart == "" || len(strings.TrimPrefix(k.PublicKeyStart, "glet_")) > 8 {
				t.Fatalf("%s: key %d is named by %q", p.Project, k.ID, k.PublicKeyStart)
			}
		}
	}
	r = c.run("", "export", "-p", "demo/web-shop", "--with-public-keys")
	r.must(t, 0, `"public_key": "glet_`)
	if strings.Contains(r.stdout, `"dsn"`) {
		t.Fatalf("--with-public-keys added the DSNs:\n%s", r.stdout)
	}
	c.run("", "export", "--help").must(t, 0, "public key", "rebuild")
}
