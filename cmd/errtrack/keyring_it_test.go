package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// TestLoginUseLogoutWithRealKeyring runs the built binary against a real
// Secret Service (under .ci/with-keyring) and checks with secret-tool what it
// stored; the token must appear in no output and no file.
func TestLoginUseLogoutWithRealKeyring(t *testing.T) {
	if os.Getenv("ERRTRACK_KEYRING_IT") != "1" {
		if os.Getenv("CI") != "" {
			t.Fatal("keyring integration tests must run under .ci/with-keyring in CI (make test does this)")
		}
		t.Skip("no Secret Service session: run 'make test' to test against a real gnome-keyring")
	}
	requireTool(t, "secret-tool")
	bin := binary(t)
	url := startMockServer(t)
	cfg := t.TempDir()
	env := []string{"XDG_CONFIG_HOME=" + cfg}
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, "GITLAB_TOKEN=") && !strings.HasPrefix(e, "GITLAB_HOST=") && !strings.HasPrefix(e, "XDG_CONFIG_HOME=") {
			env = append(env, e)
		}
	}
	var outputs []string
	run := func(stdin string, wantCode int, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != wantCode {
			t.Fatalf("errtrack %v: exit %d, want %d\n%s", args, code, wantCode, out)
		}
		outputs = append(outputs, string(out))
		return string(out)
	}
	lookup := func() (string, error) {
		out, err := exec.Command("secret-tool", "lookup", "service", "errtrack", "username", url).Output()
		return string(out), err
	}

	out := run(mockserver.TokenMaintainer+"\n", 0, "login", "--host", url)
	if !strings.Contains(out, "Logged in") || !strings.Contains(out, "demo-maintainer") {
		t.Fatalf("login said:\n%s", out)
	}
	if got, err := lookup(); err != nil || got != mockserver.TokenMaintainer {
		t.Fatalf("secret-tool lookup = %q, %v", got, err)
	}
	if out := run("", 0, "status", "--host", url); !strings.Contains(out, "system keyring") {
		t.Fatalf("status:\n%s", out)
	}
	// --host is remembered, so later commands find the host and the keyring entry.
	if out := run("", 0, "keys", "list", "-p", "demo/web-shop"); !strings.Contains(out, "glet_") {
		t.Fatalf("keys list:\n%s", out)
	}

	// auth rotate stores the new token in the real keyring; the old one is
	// revoked, and the commands go on with the new one.
	if out := run("", 0, "auth", "rotate", "--host", url, "--expires-in", "4w", "--yes"); !strings.Contains(out, "Rotated the token") || !strings.Contains(out, "expires in 28 days") {
		t.Fatalf("auth rotate:\n%s", out)
	}
	rotated, err := lookup()
	if err != nil || rotated == mockserver.TokenMaintainer || !strings.HasPrefix(rotated, "mock-rotated-") {
		t.Fatalf("keyring after rotation holds %q, %v", rotated, err)
	}
	if out := run("", 0, "keys", "list", "-p", "demo/web-shop"); !strings.Contains(out, "glet_") {
		t.Fatalf("keys list with the rotated token:\n%s", out)
	}
	defer func() {
		for _, o := range outputs {
			if strings.Contains(o, rotated) {
				t.Fatalf("rotated token printed:\n%s", o)
			}
		}
	}()

	// A token that stopped working gives a 401 with advice, and still no leak.
	store := exec.Command("secret-tool", "store", "--label=errtrack test", "service", "errtrack", "username", url)
	store.Stdin = strings.NewReader(mockserver.TokenExpired)
	if out, err := store.CombinedOutput(); err != nil {
		t.Fatalf("secret-tool store: %v\n%s", err, out)
	}
	if out := run("", 1, "keys", "list", "-p", "1"); !strings.Contains(out, "expired") || !strings.Contains(out, "errtrack login --host "+url) {
		t.Fatalf("401 advice:\n%s", out)
	}

	if out := run("", 0, "logout", "--host", url); !strings.Contains(out, "Logged out") {
		t.Fatalf("logout:\n%s", out)
	}
	if _, err := lookup(); err == nil {
		t.Fatal("the keyring entry survived logout")
	}
	run("", 1, "status", "--host", url)

	for _, o := range outputs {
		for _, tok := range []string{mockserver.TokenMaintainer, mockserver.TokenExpired} {
			if strings.Contains(o, tok) {
				t.Fatalf("token printed:\n%s", o)
			}
		}
	}
	_ = filepath.WalkDir(cfg, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(path)
		if strings.Contains(string(b), mockserver.TokenMaintainer) || strings.Contains(string(b), mockserver.TokenExpired) {
			t.Fatalf("token written to %s", path)
		}
		return nil
	})
}

// TestKeyringUnavailableSaysWhatToDo points the binary at a D-Bus socket that
// does not exist: the keyring must fail fast with advice, not hang.
func TestKeyringUnavailableSaysWhatToDo(t *testing.T) {
	bin := binary(t)
	cmd := exec.Command(bin, "status", "--host", "https://gitlab.example.com")
	cmd.Env = []string{"HOME=" + t.TempDir(), "XDG_CONFIG_HOME=" + t.TempDir(), "DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/errtrack-bus", "PATH=/usr/bin:/bin"}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "system keyring is not available") || !strings.Contains(string(out), "GITLAB_TOKEN") {
		t.Fatalf("output:\n%s", out)
	}
}
