package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// A project URL obeys the host rules of --host: user info before the host
// is refused (the token never goes to "evil"), and a host named only by a
// project URL does not become the remembered one for GITLAB_TOKEN.
func TestProjectURLHostRules(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	var hits atomic.Int32
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer evil.Close()
	delete(c.env, "GITLAB_HOST")
	evilHost := strings.TrimPrefix(evil.URL, "http://")
	c.run("", "keys", "list", "-p", "http://gitlab.example.com@"+evilHost+"/g/app").must(t, 2, "user info", evilHost)
	if hits.Load() != 0 {
		t.Fatal("a request went to the host after @")
	}
	// A plain URL of another host works once, with the environment's
	// token, but is not remembered for the next command.
	c.run("", "keys", "list", "-p", c.url+"/demo/web-shop").must(t, 0, "glet_")
	if b, err := os.ReadFile(c.cfg); err == nil && strings.Contains(string(b), c.url) {
		t.Fatalf("the URL's host was remembered:\n%s", b)
	}
}

// GODEBUG=http2debug would print the PRIVATE-TOKEN header: errtrack does
// not start with it.
func TestHTTP2DebugRefused(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.env["GODEBUG"] = "http2debug=2"
	r := c.run("", "keys", "list", "-p", "1")
	r.must(t, 2, "GODEBUG=http2debug", "--debug")
	if strings.Contains(r.stdout+r.stderr, "glet_") {
		t.Fatal("it ran")
	}
}

// Shell completion passes nothing raw from the server: descriptions are
// cleaned, and only paths made of path segments are offered.
func TestCompletionIsCleaned(t *testing.T) {
	t.Parallel()
	const evil = "\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07\x1b[2J"
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/projects"):
			w.Write([]byte(`[{"id":1,"path_with_namespace":"demo/web-shop","name":"` + jsonEscaped(evil) + `"},` +
				`{"id":2,"path_with_namespace":"demo/x\u001b[2J","name":"n"},{"id":3,"path_with_namespace":"demo/ok\tinjected","name":"n"}]`))
		case strings.HasSuffix(r.URL.Path, "/client_keys"):
			w.Write([]byte(`[{"id":1,"active":true,"public_key":"` + jsonEscaped(evil) + `","sentry_dsn":"x"}]`))
		case strings.HasSuffix(r.URL.Path, "/error_tracking/settings"):
			// None set up: the keys are GitLab's.
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"message":"404 Error Tracking Setting Not Found"}`))
		default:
			w.Write([]byte(`{"id":1,"path_with_namespace":"demo/web-shop"}`))
		}
	}))
	c.run("", "keys", "list", "-p", "1").must(t, 0) // remembers the host
	for _, args := range [][]string{
		{"__complete", "keys", "list", "--project", "demo/"},
		{"__complete", "keys", "delete", "--project", "1", ""},
	} {
		r := c.run("", args...)
		r.must(t, 0, map[bool]string{true: "demo/web-shop", false: "1\n"}[args[1] == "keys" && args[2] == "list"])
		if strings.ContainsAny(r.stdout, "\x1b\x07") || strings.Contains(r.stdout, "injected") || strings.Contains(r.stdout, "demo/x") {
			t.Fatalf("%v: %q", args, r.stdout)
		}
	}
}

func jsonEscaped(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// A 90 KB answer nested 9,000 deep is printed as received (indenting it
// would print 810 MB), with bounded memory.
func TestAPIDeepJSONBounded(t *testing.T) {
	t.Parallel()
	deep := []byte(strings.Repeat(`{"a":[`, 4500) + strings.Repeat(`]}`, 4500))
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(deep)
	}))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := c.run("", "api", "GET", "projects")
	runtime.ReadMemStats(&after)
	r.must(t, 0)
	if len(r.stdout) > 2*len(deep) {
		t.Fatalf("printed %d bytes for a %d-byte answer", len(r.stdout), len(deep))
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Fatalf("allocated %d MB", alloc>>20)
	}
}

// Two mock servers on one state file: the second does not start.
func TestMockServerStateLocked(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "gitlab.json")
	startMockServer(t, "--state", state)
	out, err := exec.Command(binary(t), "mock-server", "--listen", "127.0.0.1:0", "--state", state).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "in use by another mock server") {
		t.Fatalf("%v\n%s", err, out)
	}
}

// A settings change applied and then answered 500 may have been applied:
// it says so, with the command to check.
func TestSettingsChangeAnswerLost(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{})
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPatch {
			srv.ServeHTTP(httptest.NewRecorder(), r)
			w.WriteHeader(500)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	c.run("", "settings", "disable", "-p", "1").must(t, 1, "may or may not have been applied", "errtrack settings get -p 1")
}

// A projects list that ends with rows unknown exits 1, after printing
// what it knows.
func TestProjectsListIncompleteExits1(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{})
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/projects/3/") {
			w.WriteHeader(500)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	c.run("", "projects", "list").must(t, 1, "demo/web-shop", "unknown (HTTP 500)", "1 of 10 projects could not be read")
}
