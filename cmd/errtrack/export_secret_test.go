package main

import (
	"encoding/json"
	"strings"
	"testing"
)

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
