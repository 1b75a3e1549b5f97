package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

// --mapping names projects as GitLab does, whatever their case: a path
// written Demo/Web-Shop maps demo/web-shop, never silently falling back to
// the default slug. A path named twice, in two cases with two slugs, is
// refused before anything is planned.
func TestMigrateMappingIgnoresCase(t *testing.T) {
	ss := mocksentry.New(mocksentry.Options{})
	sentrySrv := httptest.NewServer(ss)
	t.Cleanup(sentrySrv.Close)
	c := newCLI(t, nil)
	c.env["SENTRY_AUTH_TOKEN"] = mocksentry.TokenAdmin
	c.env["SENTRY_URL"] = sentrySrv.URL
	mapping := filepath.Join(t.TempDir(), "mapping.yaml")
	if err := os.WriteFile(mapping, []byte("Demo/Web-Shop: shop-errors\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	args := []string{"migrate", "--to", sentrySrv.URL, "--org", "demo", "-p", "demo/web-shop", "--create", "--team", "backend", "--mapping", mapping, "--dry-run"}
	c.run("", args...).must(t, 0, "demo/shop-errors")
	if err := os.WriteFile(mapping, []byte("Demo/Web-Shop: shop-errors\ndemo/web-shop: web\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c.run("", args...).must(t, 2, "demo/web-shop", "twice")
}
