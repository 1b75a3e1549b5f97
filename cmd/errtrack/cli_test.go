package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/config"
	"github.com/errtrack/errtrack/keyring"
)

// memStore is an in-memory keyring for command tests.
type memStore struct {
	mu sync.Mutex
	m  map[string]string
	// failSets, when set, fails the Set calls it returns true for (1 is
	// the first Set).
	failSets func(n int) bool
	sets     int
}

func (s *memStore) Get(_ context.Context, host string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.m[host]; ok {
		return t, nil
	}
	return "", &keyring.Error{Op: "get", Host: host, Kind: keyring.ErrNotFound}
}

func (s *memStore) Set(_ context.Context, host, token string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sets++
	if s.failSets != nil && s.failSets(s.sets) {
		return &keyring.Error{Op: "set", Host: host, Kind: keyring.ErrUnavailable, Cause: "locked"}
	}
	s.m[host] = token
	return nil
}

func (s *memStore) Delete(_ context.Context, host string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[host]; !ok {
		return &keyring.Error{Op: "delete", Host: host, Kind: keyring.ErrNotFound}
	}
	delete(s.m, host)
	return nil
}

type cli struct {
	t      testing.TB
	url    string
	env    map[string]string
	store  *memStore
	tty    bool
	cfg    string
	server *mockserver.Server
	// stdin, when set, replaces the string given to run.
	stdin io.Reader
	// signals reaches the app's signal handler, as a real signal would.
	signals chan os.Signal
	// now, when set, is the commands' clock; run stores it in clock, when
	// set, so a mock's clock can follow it.
	now   time.Time
	clock *atomic.Pointer[time.Time]
	// dir is where git looks for remotes; "" is a directory with none.
	dir string
	// sentry is the keyring's Sentry store; never the real keyring.
	sentry *memStore
	// jqLimit, when set, is --jq's memory bound.
	jqLimit uint64
}

type result struct {
	code           int
	stdout, stderr string
}

func newCLI(t testing.TB, h http.Handler) *cli {
	t.Helper()
	var srv *mockserver.Server
	if h == nil {
		s, err := mockserver.New(mockserver.Options{})
		if err != nil {
			t.Fatal(err)
		}
		srv, h = s, s
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return &cli{t: t, url: ts.URL, server: srv, store: &memStore{m: map[string]string{}},
		env: map[string]string{"GITLAB_TOKEN": mockserver.TokenMaintainer, "GITLAB_HOST": ts.URL, "ERRTRACK_STATE_DIR": t.TempDir()},
		cfg: filepath.Join(t.TempDir(), "config.json")}
}

func (c *cli) run(stdin string, args ...string) result {
	c.t.Helper()
	var out, errb syncBuffer
	// The app's own prompt readers run, on the test's input.
	a := newApp()
	a.stdin, a.stdout, a.stderr = io.Reader(strings.NewReader(stdin)), &out, &errb
	if c.stdin != nil {
		a.stdin = c.stdin
	}
	a.getenv = func(k string) string { return c.env[k] }
	a.unsetenv = func(string) {}
	a.keyring = c.store
	if c.sentry == nil {
		c.sentry = &memStore{m: map[string]string{}}
	}
	a.sentryKeyring = c.sentry
	a.configPath = c.cfg
	a.stdinIsTTY = func() bool { return c.tty }
	a.consoleTTY = func() bool { return false }
	a.readSecret = a.readLine // the hidden prompt needs a real terminal; the tmux tests cover it
	if c.signals == nil {
		c.signals = make(chan os.Signal, 2)
	}
	a.signals = c.signals
	a.dir = c.dir
	a.jqLimit = c.jqLimit
	if a.dir == "" {
		a.dir = c.t.TempDir() // not a clone: the tests' own checkout has remotes
	}
	if !c.now.IsZero() {
		now := c.now
		a.now = func() time.Time { return now }
	}
	if c.clock != nil {
		now := c.now
		c.clock.Store(&now)
	}
	code := a.run(args)
	r := result{code, out.String(), errb.String()}
	for _, tok := range []string{mockserver.TokenMaintainer, mockserver.TokenExpired, mockserver.TokenReadOnly, mockserver.TokenDeveloper} {
		if strings.Contains(r.stdout+r.stderr, tok) {
			c.t.Fatalf("token %s printed by %v:\n%s%s", tok, args, r.stdout, r.stderr)
		}
	}
	return r
}

// syncBuffer is a bytes.Buffer safe for the app's prompt goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (r result) must(t *testing.T, code int, want ...string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, code, r.stdout, r.stderr)
	}
	for _, w := range want {
		if !strings.Contains(r.stdout+r.stderr, w) {
			t.Fatalf("output lacks %q\nstdout: %s\nstderr: %s", w, r.stdout, r.stderr)
		}
	}
}

func TestSettingsCommands(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "settings", "get", "--project", "demo/legacy-api").must(t, 0, "Active:", "yes", "Legacy API", "https://sentry.example.com/demo/legacy-api/")
	r := c.run("", "settings", "get", "-p", "1", "--json")
	r.must(t, 0)
	var s map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &s); err != nil || s["active"] != true || s["integrated"] != true {
		t.Fatalf("json %s: %v", r.stdout, err)
	}
	if _, ok := s["errtracker_external_url"]; !ok || len(s) != 5 {
		t.Fatalf("not the specification's object: %s", r.stdout)
	}
	c.run("", "settings", "get", "-p", "2").must(t, 1, "not configured")
	c.run("", "settings", "create", "-p", "2", "--active=true", "--integrated=true").must(t, 0, "Integrated:", "yes")
	if c.server.KeyCount(2) != 1 {
		t.Fatal("no key auto-created")
	}
	c.run("", "settings", "create", "-p", "4", "--active=true", "--integrated=true").must(t, 1, "not available for this project on this GitLab")
	c.run("", "settings", "create", "-p", "2", "--active=true").must(t, 2, "needs both")
	c.run("", "settings", "update", "-p", "2").must(t, 2, "needs --active")
	c.run("", "settings", "update", "-p", "2", "--active=false", "--json").must(t, 0, `"active": false`)
	c.run("", "settings", "enable", "-p", "5").must(t, 0, "Active:        yes")
	c.run("", "settings", "disable", "-p", "5", "--json").must(t, 0, `"active": false`)
	c.run("", "settings", "update", "-p", "1", "--active=true", "--integrated=false").must(t, 1, "refused the change", "api url is a required field")
}

func TestKeysCommands(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "keys", "list", "-p", "1").must(t, 0, "ID", "PUBLIC KEY", "glet_", "/errortracking/api/v1/projects/1")
	r := c.run("", "keys", "list", "-p", "1", "--json")
	var keys []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &keys); err != nil || len(keys) != 2 || keys[0]["errtracker_dsn"] == nil {
		t.Fatalf("json %s: %v", r.stdout, err)
	}
	c.run("", "keys", "list", "-p", "2", "--json").must(t, 0, "[]")
	c.run("", "keys", "list", "-p", "2").must(t, 0, "No client keys")
	r = c.run("", "keys", "create", "-p", "1", "--json")
	var k map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &k); err != nil || k["id"].(float64) != 4 {
		t.Fatalf("json %s: %v", r.stdout, err)
	}
	c.run("", "keys", "create", "-p", "1").must(t, 0, "ID:", "5", "DSN:")

	c.run("", "keys", "delete", "-p", "1", "4").must(t, 2, "pass --yes")
	if c.server.KeyCount(1) != 4 {
		t.Fatal("deleted without confirmation")
	}
	c.tty = true
	c.run("n\n", "keys", "delete", "-p", "1", "4").must(t, 0, "Delete client key 4 (glet_", "Nothing deleted")
	c.run("\n", "keys", "delete", "-p", "1", "4").must(t, 0, "Nothing deleted")
	if c.server.KeyCount(1) != 4 {
		t.Fatal("deleted after No")
	}
	c.run("y\n", "keys", "delete", "-p", "1", "4").must(t, 0, "Deleted client key 4")
	c.tty = false
	c.run("", "keys", "delete", "-p", "1", "5", "--yes", "--json").must(t, 0, `"id": 5`)
	c.run("", "keys", "delete", "-p", "1", "5", "--yes").must(t, 1, "Project demo/web-shop has no client key 5: nothing was deleted")
	c.tty = true
	c.run("y\n", "keys", "delete", "-p", "1", "99").must(t, 1, "Project demo/web-shop has no client key 99: nothing was deleted")
	c.tty = false
	c.run("", "keys", "delete", "-p", "1", "abc", "--yes").must(t, 2, "is not a key: a GitLab key's ID, or a Sentry key's public key")
	c.run("", "keys", "delete", "-p", "1").must(t, 2, "exactly one KEY_ID")
}

func TestRotate(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	before := c.server.Keys(5)
	r := c.run("", "keys", "rotate", "-p", "demo/paused", "--yes", "--delete-with-unread-groups")
	r.must(t, 0, "Created client key", "replaces key 3 (glet_", "which is deleted")
	after := c.server.Keys(5)
	if len(before) != 1 || len(after) != 1 || after[0].ID == before[0].ID {
		t.Fatalf("before %v after %v", before, after)
	}
	if strings.TrimSpace(r.stdout) != "http://"+after[0].PublicKey+"@"+strings.TrimPrefix(c.url, "http://")+"/errortracking/api/v1/projects/5" {
		t.Fatalf("stdout is not the new DSN: %q", r.stdout)
	}
	c.run("", "keys", "rotate", "-p", "1", "--yes", "--delete-with-unread-groups").must(t, 2, "has 2 client keys", "--old")
	if c.server.KeyCount(1) != 2 {
		t.Fatal("rotate with an ambiguous old key changed something")
	}
	c.run("", "keys", "rotate", "-p", "1", "--old", "99", "--yes", "--delete-with-unread-groups").must(t, 1, "no client key 99", "nothing was changed")
	// SENTRY_DSN holds key 1's DSN: --yes alone never deletes key 1.
	r = c.run("", "keys", "rotate", "-p", "1", "--old", "1", "--yes", "--delete-with-unread-groups", "--json")
	r.must(t, 1, "CI/CD variable SENTRY_DSN (all environments) holds the old key's DSN, so the old key is kept", "--update-variables", "--keep-variables")
	var rot struct {
		Created, Deleted map[string]any
		Variables        []map[string]any
	}
	if err := json.Unmarshal([]byte(r.stdout), &rot); err != nil || rot.Deleted != nil || rot.Created["errtracker_dsn"] == nil ||
		len(rot.Variables) != 1 || rot.Variables[0]["result"] != "unchanged" || rot.Variables[0]["held_old_dsn"] != true {
		t.Fatalf("json %s: %v", r.stdout, err)
	}
	if c.server.Keys(1)[0].ID != 1 || c.server.Variables(1)[0].Value != "{{dsn:1}}" {
		t.Fatal("key 1 or SENTRY_DSN changed")
	}
	made := rot.Created["id"]
	// The retry goes on with the key the first run made: no second key.
	r = c.run("", "keys", "rotate", "-p", "1", "--old", "1", "--yes", "--delete-with-unread-groups", "--update-variables", "--json")
	r.must(t, 0, "SENTRY_DSN (all environments) holds the new DSN", fmt.Sprintf("Key %v was made by an unfinished rotation of key 1", made), "Going on with it")
	if err := json.Unmarshal([]byte(r.stdout), &rot); err != nil || rot.Deleted["id"].(float64) != 1 || rot.Variables[0]["result"] != "updated" || rot.Created["id"] != made {
		t.Fatalf("json %s: %v", r.stdout, err)
	}
	if strings.Contains(r.stdout, `"value"`) {
		t.Fatal("the JSON shows a variable's value")
	}
	c.run("", "keys", "rotate", "-p", "1", "--old", "2", "--yes", "--delete-with-unread-groups", "--update-variables", "--keep-variables").must(t, 2, "opposite")
	c.run("", "keys", "rotate", "-p", "1", "--old", "2").must(t, 2, "Give --yes")
	c.tty = true
	c.run("n\n", "keys", "rotate", "-p", "1", "--old", "2").must(t, 0, "old key 2 (glet_", "was kept")
	if c.server.KeyCount(1) != 3 {
		t.Fatalf("keys %v", c.server.Keys(1))
	}
}

// failingDeletes answers every DELETE with 503, as a broken proxy would.
type failingDeletes struct{ next http.Handler }

func (f failingDeletes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodDelete {
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte("<html>down</html>"))
		return
	}
	f.next.ServeHTTP(w, r)
}

func TestRotateDeleteFailsKeepsBoth(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{})
	c := newCLI(t, failingDeletes{srv})
	r := c.run("", "keys", "rotate", "-p", "5", "--yes", "--delete-with-unread-groups", "--json")
	r.must(t, 1, "old key 3 (glet_", "may or may not have been deleted", "HTTP 503", "keys delete --project 5 3")
	keys := srv.Keys(5)
	if len(keys) != 2 || keys[0].ID != 3 {
		t.Fatalf("keys %v: old key must stay and the new one exist", keys)
	}
	if !strings.Contains(r.stdout, keys[1].PublicKey) || strings.Contains(r.stdout, `"deleted": {`) {
		t.Fatalf("stdout does not show the new key alone: %s", r.stdout)
	}
}

func TestErrorClasses(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	for _, tc := range []struct {
		token string
		args  []string
		want  string
	}{
		{mockserver.TokenExpired, []string{"keys", "list", "-p", "1"}, "has expired"},
		{mockserver.TokenRevoked, []string{"keys", "list", "-p", "1"}, "was revoked"},
		{"wrong-token", []string{"keys", "list", "-p", "1"}, "did not accept your token"},
		{mockserver.TokenDeveloper, []string{"settings", "get", "-p", "1"}, "Maintainer role"},
		{mockserver.TokenReadOnly, []string{"keys", "create", "-p", "1"}, "lacks the api scope"},
		{mockserver.TokenMaintainer, []string{"keys", "list", "-p", "6"}, "Project not found"},
		{mockserver.TokenMaintainer, []string{"keys", "list", "-p", "nope/nothing"}, "Project not found"},
	} {
		c.env["GITLAB_TOKEN"] = tc.token
		c.run("", tc.args...).must(t, 1, tc.want)
	}
	c.env["GITLAB_TOKEN"] = ""
	c.run("", "keys", "list", "-p", "1").must(t, 1, "No token is stored", "errtrack login --host")

	broken := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		w.Write([]byte(`{"message":"500 Internal Server Error"}`))
	}))
	broken.run("", "keys", "list", "-p", "1").must(t, 1, "HTTP 500", "run the command again")
	limited := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	limited.run("", "keys", "list", "-p", "1").must(t, 1, "rate limiting", "Wait 120 s")
	gone := newCLI(t, nil)
	gone.env["GITLAB_HOST"] = "http://127.0.0.1:1"
	gone.run("", "keys", "list", "-p", "1").must(t, 1, "Could not reach the server")
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "keys", "list").must(t, 2, "--project is required")
	c.run("", "keys", "list", "-p", "no path").must(t, 2, "not a project")
	c.run("", "keys", "list", "-p", "1", "--bogus").must(t, 2, "unknown flag", "Run 'errtrack keys list --help'")
	c.run("", "keys", "list", "-p", "1", "extra").must(t, 2, "takes no arguments")
	c.run("", "nonsense").must(t, 2, "unknown command")
	c.run("", "settings", "get", "-p", "1", "--host", "ftp://x").must(t, 2, "not supported")
	c.run("", "mock-server", "--field-names", "weird").must(t, 2, "spec or gitlab")
	c.run("", "--project", "a b", "--demo").must(t, 2, "is not a project")
}

func TestVersionAndHelp(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "version").must(t, 0, "errtrack dev")
	var walk func(cmd *cobra.Command)
	walk = func(cmd *cobra.Command) {
		if cmd.Runnable() && cmd.Name() != "help" && !strings.HasPrefix(cmd.CommandPath(), "errtrack completion") && cmd.Name() != "version" && cmd.Example == "" {
			t.Errorf("%s has no example", cmd.CommandPath())
		}
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(newApp().rootCmdFor(nil))
	c.run("", "keys", "rotate", "--help").must(t, 0, "Examples:", "--old")
	c.run("", "completion", "bash").must(t, 0, "bash completion")
}

func TestLoginStatusLogout(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.env["GITLAB_TOKEN"] = ""
	c.run("nonsense-token\n", "login").must(t, 1, "was not stored", "did not accept your token")
	if len(c.store.m) != 0 {
		t.Fatal("a refused token was stored")
	}
	c.run(mockserver.TokenReadOnly+"\n", "login").must(t, 0, "Logged in to", "demo-maintainer", "read_api", "lacks the api scope")
	c.run(mockserver.TokenExpiring+"\n", "login").must(t, 0, "expires in 3 days", "rotate it: errtrack auth rotate")
	if c.store.m[c.url] != mockserver.TokenExpiring {
		t.Fatalf("stored under %v", c.store.m)
	}
	c.run("", "status").must(t, 0, c.url, "system keyring", "demo-maintainer", "Expires:")
	c.run("", "auth", "status").must(t, 0, "system keyring")
	c.env["GITLAB_TOKEN"] = mockserver.TokenMaintainer
	c.run("", "status").must(t, 0, "GITLAB_TOKEN")
	c.env["GITLAB_TOKEN"] = ""
	c.run("", "keys", "list", "-p", "1").must(t, 0, "glet_")
	c.run("", "logout").must(t, 0, "Logged out")
	c.run("", "logout").must(t, 0, "No token was stored")
	c.run("", "status").must(t, 1, "Not logged in")
	c.run("", "login").must(t, 2, "no token given")
	c.run("two words\n", "login").must(t, 2, "spaces")
	c.tty = true
	c.run(mockserver.TokenMaintainer+"\n", "login").must(t, 0, "Token (input hidden)", "personal_access_tokens", "Logged in")
}

func TestLastHostRemembered(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "keys", "list", "-p", "1").must(t, 0)
	delete(c.env, "GITLAB_HOST")
	c.run("", "keys", "list", "-p", "1").must(t, 0, "glet_")
}

func TestHostileServerOutputIsSafe(t *testing.T) {
	t.Parallel()
	const evil = "\x1b]0;pwned\x07\x1b[2J\u009b31m\u202eevil\u200b\U000e0041"
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		b, _ := json.Marshal(evil)
		s := string(b)
		if strings.HasSuffix(r.URL.Path, "/settings") {
			w.Write([]byte(`{"active":true,"integrated":true,"project_name":` + s + `,"api_url":` + s + `}`))
			return
		}
		if r.Method == "DELETE" {
			w.WriteHeader(403)
			w.Write([]byte(`{"message":` + s + `}`))
			return
		}
		w.Write([]byte(`[{"id":1,"active":true,"public_key":` + s + `,"sentry_dsn":` + s + `}]`))
	}))
	for _, args := range [][]string{
		{"settings", "get", "-p", "1"}, {"settings", "get", "-p", "1", "--json"},
		{"keys", "list", "-p", "1"}, {"keys", "list", "-p", "1", "--json"},
		{"keys", "delete", "-p", "1", "1", "--yes"},
	} {
		r := c.run("", args...)
		for _, bad := range []string{"\x1b", "\x07", "\u009b", "\u202e", "\u200b", "\U000e0041"} {
			if strings.Contains(r.stdout+r.stderr, bad) {
				t.Fatalf("%v printed %q:\n%q\n%q", args, bad, r.stdout, r.stderr)
			}
		}
	}
	r := c.run("", "keys", "list", "-p", "1", "--json")
	var keys []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &keys); err != nil || keys[0]["public_key"] != evil {
		t.Fatalf("JSON does not round-trip: %v %q", err, r.stdout)
	}
}

// A mistyped command is an error with a suggestion, not a help page and exit 0.
func TestMistypedCommands(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "keys", "lsit").must(t, 2, `unknown command "lsit" for "errtrack keys"`, "did you mean list?")
	c.run("", "keys", "lsit", "-p", "1").must(t, 2, `unknown command "lsit"`, "did you mean list?")
	c.run("", "key", "list", "-p", "1").must(t, 2, `unknown command "key" for "errtrack"`, "did you mean keys?")
	c.run("", "auth", "stauts").must(t, 2, "did you mean status?")
	c.run("", "settings").must(t, 0, "Available Commands")
}

// Flag values are checked with words, not strconv's.
func TestFlagValueWords(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"settings", "create", "-p", "2", "--active=yes", "--integrated=true"}, `--active takes true or false, not "yes"`},
		{[]string{"keys", "list", "-p", "1", "--timeout", "soon"}, `--timeout takes a duration such as 30s`},
		{[]string{"keys", "rotate", "-p", "1", "--old", "abc"}, `--old takes the key to replace`},
	} {
		r := c.run("", tc.args...)
		r.must(t, 2, tc.want)
		if strings.Contains(r.stderr, "strconv") {
			t.Fatalf("strconv's words: %s", r.stderr)
		}
	}
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

func TestStatusJSON(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.env["GITLAB_TOKEN"] = mockserver.TokenExpiring
	r := c.run("", "status", "--json")
	r.must(t, 0)
	var st map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || st["user"] != "demo-maintainer" || st["days_left"].(float64) != 3 || st["logged_in"] != true {
		t.Fatalf("%s: %v", r.stdout, err)
	}
	c.env["GITLAB_TOKEN"] = mockserver.TokenRevoked
	r = c.run("", "status", "--json")
	r.must(t, 1, "revoked")
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || st["logged_in"] != false || st["error"] == nil {
		t.Fatalf("%s: %v", r.stdout, err)
	}
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

// --debug prints every request and answer with headers, the token as
// [redacted]; ERRTRACK_DEBUG=api does the same.
func TestDebugOutput(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	r := c.run("", "settings", "disable", "-p", "demo/web-shop", "--debug")
	r.must(t, 0, "> PATCH "+c.url+"/api/v4/projects/demo%2Fweb-shop/error_tracking/settings?active=false",
		"> Private-Token: [redacted]", "< 200 OK", `< {"active":false`)
	c.env["ERRTRACK_DEBUG"] = "api"
	c.run("", "keys", "list", "-p", "1").must(t, 0, "> GET "+c.url+"/api/v4/projects/1/error_tracking/client_keys?page=1&per_page=100", "< X-Total: 2")
	delete(c.env, "ERRTRACK_DEBUG")
	if r := c.run("", "keys", "list", "-p", "1"); strings.Contains(r.stderr, "> GET") {
		t.Fatal("debug output without --debug")
	}
}

// errtrack api: a raw call with the stored credentials and errtrack's rules.
func TestAPICommand(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	r := c.run("", "api", "GET", "projects/demo%2Fweb-shop/error_tracking/settings")
	r.must(t, 0, `"active": true`, `"integrated": true`)
	c.run("", "api", "patch", "/api/v4/projects/1/error_tracking/settings", "-F", "active=false").must(t, 0, `"active": false`)
	c.run("", "settings", "get", "-p", "1").must(t, 0, "Active:        no")
	c.run("", "api", "GET", "projects/6/error_tracking/settings").must(t, 1, `"message": "404 Project Not Found"`, "Project not found")
	c.run("", "api", "GET", "https://evil.example/api/v4/user").must(t, 2, "not a URL")
	c.run("", "api").must(t, 2, "api takes a PATH")
	c.run("", "api", "FETCH", "user").must(t, 2, `"FETCH" is not an HTTP method`)
	c.run("", "api", "user").must(t, 0, `"username": "demo-maintainer"`) // GET, as gh api
	c.run("", "api", "GET", "user", "-f", "novalue").must(t, 2, "-f takes key=value")
	r = c.run("", "api", "GET", "projects", "-f", "search=paused", "-f", "membership=true")
	r.must(t, 0, "demo/paused")
	if strings.Contains(r.stdout, "demo/web-shop") {
		t.Fatal("-f did not reach the query")
	}
}

func TestProjectsList(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "projects", "list").must(t, 0, "ERROR TRACKING", "demo/web-shop", "integrated · on · 2 keys", "Sentry · on", "not set up")
	r := c.run("", "projects", "list", "--json")
	var ps []map[string]any
	// demo/* maintained (ios and android included), ops/api, partner/sdk
	// (maintained through its share into ops), then ops/old-dashboard,
	// archived: listed apart, and skipped by changes.
	if err := json.Unmarshal([]byte(r.stdout), &ps); err != nil || len(ps) != 10 {
		t.Fatalf("%s: %v", r.stdout, err)
	}
	if last := ps[9]; last["path"] != "ops/old-dashboard" || !strings.HasPrefix(fmt.Sprint(last["skipped"]), "archived") {
		t.Fatalf("the archived project: %v", last)
	}
	for _, p := range ps {
		if p["path"] == "demo/web-shop" {
			et := p["error_tracking"].(map[string]any)
			if et["keys"].(float64) != 2 || et["integrated"] != true || et["configured"] != true {
				t.Fatalf("%v", et)
			}
		}
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

// Tab completes --project from the recent projects and the server's search,
// and key IDs for keys delete.
func TestCompletion(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "keys", "list", "-p", "demo/paused").must(t, 0) // remembers the host
	r := c.run("", "__complete", "keys", "list", "--project", "demo/we")
	r.must(t, 0, "demo/web-shop\tWeb Shop")
	if strings.Contains(r.stdout, "demo/paused") {
		t.Fatalf("a project that does not match: %s", r.stdout)
	}
	c.run("", "__complete", "settings", "get", "--project", "").must(t, 0, "demo/legacy-api", "demo/web-shop")
	c.run("", "__complete", "keys", "delete", "--project", "1", "").must(t, 0, "1\tglet_", "2\tglet_")
	c.run("", "__complete", "keys", "verify", "--project", "1", "").must(t, 0, "1\tglet_", "2\tglet_")
	// Without a token, the recent projects still complete.
	c.env["GITLAB_TOKEN"] = ""
	c.store.m = map[string]string{}
	cfg := config.Config{Recent: map[string][]config.Recent{c.url: {{ID: 5, Path: "demo/paused"}}}, LastHost: c.url}
	cfg.Save(c.cfg)
	c.run("", "__complete", "keys", "list", "--project", "").must(t, 0, "demo/paused\trecent")
}
