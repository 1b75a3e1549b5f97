// Package testenv gives a test binary, and every process its tests start, a
// HOME, config, state and cache of its own: the caller's errtrack, GitLab,
// Sentry and XDG settings are cleared, so a test can neither read the user's
// config (a default host, a theme) nor write into their ledger or recents.
//
// Each package's TestMain calls Run; child processes get the isolated
// environment through os.Environ.
package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// clearedPrefixes are the variables a user may have set that change where
// errtrack reads and writes, which server it talks to, or with what token.
var clearedPrefixes = []string{"ERRTRACK_", "GITLAB_", "SENTRY_", "XDG_", "GL_"}

// kept are cleared-prefix variables that are switches of the test run itself:
// .ci/with-keyring says a private Secret Service is up.
var kept = map[string]bool{"ERRTRACK_KEYRING_IT": true}

// goDirs are the go command's own directories. Tests build errtrack with
// `go build`; its cache and modules stay where the caller's are (their
// defaults derive from HOME), so a build stays warm and downloads nothing.
var goDirs = []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOENV"}

// Run isolates the environment, runs the tests and removes what they left
// in the isolated HOME. It returns the exit code for os.Exit.
func Run(m *testing.M) int {
	dir, err := Isolate()
	if err != nil {
		fmt.Fprintln(os.Stderr, "testenv:", err)
		return 2
	}
	code := m.Run()
	_ = os.RemoveAll(dir)
	return code
}

// Isolate clears the caller's variables and points HOME and the XDG
// directories at a new temporary directory, which it returns.
func Isolate() (string, error) {
	godirs, err := goDefaults()
	if err != nil {
		return "", err
	}
	keyringIT := os.Getenv("ERRTRACK_KEYRING_IT") == "1"
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if kept[k] {
			continue
		}
		for _, p := range clearedPrefixes {
			if strings.HasPrefix(k, p) {
				os.Unsetenv(k)
				break
			}
		}
	}
	// In a CI/CD job errtrack takes its host from CI_SERVER_URL: a test
	// run in one must not reach the instance running it.
	os.Unsetenv("CI_SERVER_URL")
	// Only the private Secret Service of .ci/with-keyring is ever reached:
	// outside it, the user's own session bus (and keyring) is out of reach.
	if !keyringIT {
		os.Unsetenv("DBUS_SESSION_BUS_ADDRESS")
	}
	dir, err := os.MkdirTemp("", "errtrack-testenv-")
	if err != nil {
		return "", err
	}
	set := map[string]string{
		"HOME":            filepath.Join(dir, "home"),
		"XDG_CONFIG_HOME": filepath.Join(dir, "config"),
		"XDG_STATE_HOME":  filepath.Join(dir, "state"),
		"XDG_CACHE_HOME":  filepath.Join(dir, "cache"),
		"XDG_DATA_HOME":   filepath.Join(dir, "data"),
	}
	for k, v := range set {
		if err := os.MkdirAll(v, 0o700); err != nil {
			return "", err
		}
		os.Setenv(k, v)
	}
	for k, v := range godirs {
		os.Setenv(k, v)
	}
	return dir, nil
}

// goDefaults are the go command's directories as it finds them from the
// caller's environment, its go env file, or their defaults, before HOME
// moves. (Running `go env` instead would write the go command's telemetry
// into the caller's config directory.)
func goDefaults() (map[string]string, error) {
	out := map[string]string{}
	if v := os.Getenv("GOENV"); v != "" {
		out["GOENV"] = v
	} else if c, err := os.UserConfigDir(); err == nil {
		out["GOENV"] = filepath.Join(c, "go", "env")
	}
	file := map[string]string{}
	if b, err := os.ReadFile(out["GOENV"]); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
				file[k] = v
			}
		}
	}
	for _, k := range goDirs {
		if v := os.Getenv(k); v != "" {
			out[k] = v
		} else if v := file[k]; v != "" && k != "GOENV" {
			out[k] = v
		}
	}
	if out["GOCACHE"] == "" {
		if c, err := os.UserCacheDir(); err == nil {
			out["GOCACHE"] = filepath.Join(c, "go-build")
		}
	}
	if out["GOPATH"] == "" {
		h, err := os.UserHomeDir()
		if err != nil {
			return nil, fmt.Errorf("no HOME to find the go command's directories from: %w", err)
		}
		out["GOPATH"] = filepath.Join(h, "go")
	}
	if out["GOMODCACHE"] == "" {
		out["GOMODCACHE"] = filepath.Join(filepath.SplitList(out["GOPATH"])[0], "pkg", "mod")
	}
	return out, nil
}
