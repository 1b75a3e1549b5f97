package main

import (
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// --host's help names every place a host comes from, in the order
// resolveHost takes them, the default host set with config set host too.
func TestHostHelpNamesTheDefaultHost(t *testing.T) {
	c := newCLI(t, nil)
	for _, args := range [][]string{{"--help"}, {"keys", "list", "--help"}} {
		r := c.run("", args...)
		line := ""
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.Contains(l, "--host string") {
				line = l
			}
		}
		want := []string{"$GITLAB_HOST", "git remote", "errtrack config set host", "last host used", "https://gitlab.com"}
		at := 0
		for _, w := range want {
			i := strings.Index(line[at:], w)
			if i < 0 {
				t.Fatalf("%v: --host help lacks %q after position %d: %s", args, w, at, line)
			}
			at += i
		}
	}
}

func TestLastHostRemembered(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "keys", "list", "-p", "1").must(t, 0)
	delete(c.env, "GITLAB_HOST")
	c.run("", "keys", "list", "-p", "1").must(t, 0, "glet_")
}

// A project URL names its GitLab: its host is used when none is given, and
// a different --host or GITLAB_HOST is refused rather than acting on a
// same-named project elsewhere.
func TestProjectURLHost(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	delete(c.env, "GITLAB_HOST")
	c.run("", "keys", "list", "-p", c.url+"/demo/web-shop/-/settings/monitor").must(t, 0, "glet_")
	c.run("", "keys", "list", "-p", c.url+"/demo/web-shop", "--host", "https://gitlab.example.com").must(t, 2,
		"names a project on "+c.url, "--host is https://gitlab.example.com")
	c.env["GITLAB_HOST"] = "https://other.example.com"
	c.run("", "keys", "rotate", "-p", c.url+"/demo/paused", "--yes", "--delete-with-unread-groups").must(t, 2, "GITLAB_HOST is https://other.example.com")
	if c.server.KeyCount(5) != 1 {
		t.Fatal("a refused rotate changed keys")
	}
	c.env["GITLAB_HOST"] = c.url
	c.run("", "settings", "get", "-p", c.url+"/demo/web-shop").must(t, 0, "Active:")
}

// The host is remembered only after a request to it worked: a mistyped
// --host does not become the default of later commands.
func TestMistypedHostNotRemembered(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "keys", "list", "-p", "1").must(t, 0)
	c.run("", "keys", "list", "-p", "1", "--host", "http://127.0.0.1:1").must(t, 1, "Could not reach the server")
	delete(c.env, "GITLAB_HOST")
	c.run("", "keys", "list", "-p", "1").must(t, 0, "glet_")
}

// With GITLAB_TOKEN set, token errors say to change the variable: logging
// in changes nothing while it is set.
func TestEnvTokenErrorsNameTheVariable(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.env["GITLAB_TOKEN"] = mockserver.TokenExpired
	r := c.run("", "keys", "list", "-p", "1")
	r.must(t, 1, "GITLAB_TOKEN", "logging in changes nothing while it is set")
	if strings.Contains(r.stderr, "errtrack login") {
		t.Fatalf("advises login: %s", r.stderr)
	}
}

// The variables glab users have: GITLAB_URI and GL_HOST name the host,
// GITLAB_ACCESS_TOKEN holds the token; ERRTRACK_CONFIG_DIR moves the config.
func TestGlabVariables(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	delete(c.env, "GITLAB_HOST")
	delete(c.env, "GITLAB_TOKEN")
	c.env["GITLAB_URI"] = c.url
	c.env["GITLAB_ACCESS_TOKEN"] = mockserver.TokenMaintainer
	c.run("", "status").must(t, 0, c.url, "environment (GITLAB_ACCESS_TOKEN)")
	delete(c.env, "GITLAB_URI")
	c.env["GL_HOST"] = c.url
	c.run("", "keys", "list", "-p", "1").must(t, 0, "glet_")
	c.env["GITLAB_ACCESS_TOKEN"] = mockserver.TokenExpired
	c.run("", "keys", "list", "-p", "1").must(t, 1, "GITLAB_ACCESS_TOKEN")

	dir := t.TempDir()
	c.cfg = ""
	c.env["ERRTRACK_CONFIG_DIR"] = dir
	c.env["GITLAB_ACCESS_TOKEN"] = mockserver.TokenMaintainer
	c.run("", "keys", "list", "-p", "1").must(t, 0)
	if b, err := os.ReadFile(filepath.Join(dir, "config.json")); err != nil || !strings.Contains(string(b), c.url) {
		t.Fatalf("config in ERRTRACK_CONFIG_DIR: %s %v", b, err)
	}
}

// A --ca-file that worked for a host is remembered: a self-managed GitLab
// with a private CA needs it once.
func TestCAFileRemembered(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{})
	ts := httptest.NewTLSServer(srv)
	defer ts.Close()
	ca := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ts.Certificate().Raw}), 0o600)
	c := newCLI(t, nil)
	c.env["GITLAB_HOST"] = ts.URL
	c.run("", "keys", "list", "-p", "1").must(t, 1, "certificate", "--ca-file")
	c.run("", "keys", "list", "-p", "1", "--ca-file", ca).must(t, 0, "glet_")
	c.run("", "keys", "list", "-p", "1").must(t, 0, "glet_")
	// A remembered CA file that is gone is left out, with a warning, and
	// the TLS error says what to pass.
	os.Remove(ca)
	c.run("", "keys", "list", "-p", "1").must(t, 1, "the CA file remembered for "+ts.URL, "is gone", "--ca-file")
	// A CA file that did not work is not remembered.
	other := newCLI(t, nil)
	other.env["GITLAB_HOST"] = ts.URL
	junk := filepath.Join(t.TempDir(), "junk.pem")
	os.WriteFile(junk, []byte("junk"), 0o600)
	other.run("", "keys", "list", "-p", "1", "--ca-file", junk).must(t, 1)
	other.run("", "keys", "list", "-p", "1").must(t, 1, "certificate")
}

// A --timeout longer than the client's per-exchange default lets one slow
// answer take that long: the default (made 150ms here, 30s in errtrack)
// used to cut it, and the words then advised the --timeout already given.
// A shorter --timeout still ends the command, and says so.
func TestTimeoutLongerThanTheExchangeDefaultWaitsForASlowAnswer(t *testing.T) {
	t.Parallel()
	srv, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(400 * time.Millisecond):
			srv.ServeHTTP(w, r)
		case <-r.Context().Done():
		}
	}))
	c.exchangeDefault = 150 * time.Millisecond
	r := timed(t, 10*time.Second, func() result { return c.run("", "keys", "list", "-p", "1", "--timeout", "3s") })
	r.must(t, 0)
	start := time.Now()
	r = timed(t, 10*time.Second, func() result { return c.run("", "keys", "list", "-p", "1", "--timeout", "100ms") })
	r.must(t, 1, "did not answer in time", "--timeout (100ms) ran out: for a slow server, raise it.")
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("took %v with --timeout 100ms", d)
	}
}
