// Package secretservice_test tests the keyring package against a real
// Secret Service. It is a package of its own so that no test in its binary
// installs go-keyring's mock provider, which cannot be uninstalled.
package secretservice_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/keyring"
)

// requireSecretService runs only inside .ci/with-keyring, which starts a
// private D-Bus session with an unlocked gnome-keyring. Under CI its absence
// is a failure.
func requireSecretService(t *testing.T) {
	t.Helper()
	if os.Getenv("ERRTRACK_KEYRING_IT") == "1" {
		return
	}
	if os.Getenv("CI") != "" {
		t.Fatal("keyring integration tests must run under .ci/with-keyring in CI (make test does this)")
	}
	t.Skip("no Secret Service session: run 'make test' to test against a real gnome-keyring")
}

func secretTool(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, err := exec.Command("secret-tool", args...).Output()
	return strings.TrimSpace(string(out)), err
}

func TestRealSecretService(t *testing.T) {
	requireSecretService(t)
	s := keyring.New()
	ctx := context.Background()
	host := "https://gitlab.integration.example"
	const tok = "fake-integration-token"
	t.Cleanup(func() { _ = s.Delete(ctx, host) })
	if _, err := s.Get(ctx, host); !errors.Is(err, keyring.ErrNotFound) {
		t.Fatalf("get before set: %v", err)
	}
	if err := s.Set(ctx, "GITLAB.integration.example/", tok); err != nil {
		t.Fatal(err)
	}
	got, err := secretTool(t, "lookup", "service", keyring.Service, "username", host)
	if err != nil || got != tok {
		t.Fatalf("secret-tool sees %q, %v", got, err)
	}
	if v, err := s.Get(ctx, host); err != nil || v != tok {
		t.Fatalf("get = %q, %v", v, err)
	}
	if err := s.Set(ctx, host, tok+"-2"); err != nil {
		t.Fatal(err)
	}
	if v, _ := s.Get(ctx, host); v != tok+"-2" {
		t.Fatal("second Set did not replace the token")
	}
	if err := s.Delete(ctx, host); err != nil {
		t.Fatal(err)
	}
	if _, err := secretTool(t, "lookup", "service", keyring.Service, "username", host); err == nil {
		t.Fatal("entry still present after Delete")
	}
}
