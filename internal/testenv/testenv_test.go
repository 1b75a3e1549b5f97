package testenv

import (
	"os"
	"strings"
	"testing"
)

// TestIsolateClearsTheCallersSettings: what the user set is gone, HOME and
// the XDG directories are new, and the go command's directories are kept.
func TestIsolateClearsTheCallersSettings(t *testing.T) {
	user := t.TempDir()
	for _, k := range []string{"ERRTRACK_CONFIG_DIR", "ERRTRACK_STATE_DIR", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "HOME"} {
		t.Setenv(k, user)
	}
	t.Setenv("GITLAB_HOST", "https://gitlab.example")
	t.Setenv("GITLAB_TOKEN", "user-token")
	t.Setenv("GL_HOST", "https://gitlab.example")
	t.Setenv("SENTRY_URL", "https://sentry.example")
	t.Setenv("SENTRY_AUTH_TOKEN", "user-token")
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1/bus")
	t.Setenv("CI_SERVER_URL", "https://gitlab.example")
	t.Setenv("ERRTRACK_KEYRING_IT", "")
	t.Setenv("GOCACHE", "")
	t.Setenv("GOPATH", "")
	dir, err := Isolate()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "XDG_") || k == "HOME":
			if !strings.HasPrefix(v, dir) {
				t.Errorf("%s=%s, not in the isolated directory %s", k, v, dir)
			}
		case k == "ERRTRACK_KEYRING_IT":
		case strings.HasPrefix(k, "ERRTRACK_") || strings.HasPrefix(k, "GITLAB_") || strings.HasPrefix(k, "SENTRY_") || strings.HasPrefix(k, "GL_") || k == "DBUS_SESSION_BUS_ADDRESS" || k == "CI_SERVER_URL":
			t.Errorf("%s is still set", k)
		}
	}
	if got, want := os.Getenv("GOCACHE"), user+"/.cache/go-build"; got != want {
		t.Errorf("GOCACHE=%q, want the caller's %q", got, want)
	}
	if got, want := os.Getenv("GOPATH"), user+"/go"; got != want {
		t.Errorf("GOPATH=%q, want the caller's %q", got, want)
	}
}

// TestIsolateKeepsThePrivateKeyring: under .ci/with-keyring the private
// Secret Service's bus stays reachable.
func TestIsolateKeepsThePrivateKeyring(t *testing.T) {
	t.Setenv("ERRTRACK_KEYRING_IT", "1")
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/tmp/private-bus")
	dir, err := Isolate()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if os.Getenv("ERRTRACK_KEYRING_IT") != "1" || os.Getenv("DBUS_SESSION_BUS_ADDRESS") != "unix:path=/tmp/private-bus" {
		t.Errorf("the private keyring's variables were cleared")
	}
}
