package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

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

// The commands' words, as the console's: a host given without a scheme
// that answers plain HTTP on this machine hints at http://; an expiring
// token from the environment is replaced there; ERRTRACK_DEBUG=1 debugs;
// a server's text never makes a usage error.
func TestCommandWords(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "status", "--host", strings.TrimPrefix(c.url, "http://")).must(t, 1, "answered plain HTTP", "use --host "+c.url)
	c.env["GITLAB_TOKEN"] = mockserver.TokenExpiring
	c.run("", "status").must(t, 0, "← create a new token and set GITLAB_TOKEN to it")
	c.env["GITLAB_TOKEN"] = mockserver.TokenMaintainer
	c.env["ERRTRACK_DEBUG"] = "1"
	c.run("", "settings", "get", "-p", "1").must(t, 0, "> GET ", "[redacted]")
	delete(c.env, "ERRTRACK_DEBUG")
	srv, _ := mockserver.New(mockserver.Options{})
	c2 := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/error_tracking/settings") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			w.Write([]byte(`{"message":"active accepts only true, unknown flag"}`))
			return
		}
		srv.ServeHTTP(w, r)
	}))
	r := c2.run("", "settings", "get", "-p", "1")
	r.must(t, 1)
	if strings.Contains(r.stderr, "--help") {
		t.Fatalf("a server's 400 was taken for a usage error: %s", r.stderr)
	}
}
