package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// counting serves the mock and counts the requests that reach it.
func counting(t *testing.T) (http.Handler, *atomic.Int64) {
	t.Helper()
	s, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		s.ServeHTTP(w, r)
	}), &n
}

// -H 'Private_Token: x' is PRIVATE-TOKEN to GitLab (Rack reads dashes and
// underscores alike): refused as a usage error, nothing sent.
func TestAPIHeaderUnderscoreRefused(t *testing.T) {
	t.Parallel()
	h, n := counting(t)
	c := newCLI(t, h)
	for _, hdr := range []string{"Private_Token: x", "PRIVATE_TOKEN: x", "job_token: x", "Proxy_Authorization: x"} {
		c.run("", "api", "user", "-H", hdr).must(t, 2, "errtrack's to set")
	}
	if n.Load() != 0 {
		t.Fatalf("%d requests sent for refused headers", n.Load())
	}
}

// Lines at a prompt: CRLF and LF endings, a last line without one, one
// buffer for every prompt (a line read ahead is the next prompt's), and a
// line past the bound refused.
func TestReadStdinLine(t *testing.T) {
	t.Parallel()
	a := newApp()
	a.stdin = strings.NewReader("yes\r\nno\nlast")
	for _, want := range []string{"yes", "no", "last"} {
		if got, err := a.readStdinLine(); got != want || err != nil {
			t.Fatalf("got %q, %v; want %q", got, err, want)
		}
	}
	if _, err := a.readStdinLine(); err != io.EOF {
		t.Fatalf("after the last line: %v", err)
	}
	a = newApp()
	a.stdin = strings.NewReader(strings.Repeat("x", maxLine+1) + "\n")
	if _, err := a.readStdinLine(); err == nil || !strings.Contains(err.Error(), "too long") {
		t.Fatalf("an overlong line: %v", err)
	}
}

// Where the filter process cannot be started, the filter runs in errtrack
// with the same bounds: the heap watch cancels it, and so does the deadline.
func TestJQInProcessBounds(t *testing.T) {
	t.Parallel()
	a := newApp()
	var out bytes.Buffer
	a.stdout, a.jqLimit, a.timeout = &out, 64<<20, time.Second
	err := a.filterJQHere(context.Background(), "[range(1e9)]", []byte(`{}`))
	if err == nil || !strings.Contains(err.Error(), "--jq stopped: the filter used more than 64 MiB") {
		t.Fatalf("memory: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	err = a.filterJQHere(ctx, "last(range(1e12))", []byte(`{}`))
	if err == nil || !strings.Contains(err.Error(), "--jq stopped: the filter took longer than --timeout (1s)") {
		t.Fatalf("time: %v", err)
	}
	if err := a.filterJQHere(context.Background(), ".a", []byte(`{"a":"b"}`)); err != nil || out.String() != "b\n" {
		t.Fatalf("%q %v", out.String(), err)
	}
}

// api GET //127.0.0.1:1/x is refused by errtrack before anything is sent:
// a usage error that says why, not "the server rejected the request".
func TestAPINetworkPathRefusedLocally(t *testing.T) {
	t.Parallel()
	h, n := counting(t)
	c := newCLI(t, h)
	for _, p := range []string{"//127.0.0.1:1/x", "/../x", "a b"} {
		r := c.run("", "api", "GET", p)
		r.must(t, 2)
		if strings.Contains(r.stderr, "server") && !strings.Contains(r.stderr, "names a host") {
			t.Fatalf("%s: %s", p, r.stderr)
		}
	}
	c.run("", "api", "GET", "//127.0.0.1:1/x").must(t, 2, "a path starting with // names a host")
	if n.Load() != 0 {
		t.Fatalf("%d requests sent", n.Load())
	}
}

// A Retry-After date far off is said as the date, and as past --timeout,
// not as billions of seconds to wait.
func TestRetryAfterFarDate(t *testing.T) {
	t.Parallel()
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "Thu, 01 Jan 2099 00:00:00 GMT")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	r := c.run("", "api", "user")
	r.must(t, 1, "rate limiting requests until 2099-01-01 00:00 UTC", "days from now", "past --timeout (1m0s), so errtrack did not wait")
	if strings.Contains(r.stderr, "Wait ") {
		t.Fatalf("stderr: %s", r.stderr)
	}
	// A near one is still a wait in seconds.
	c = newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "90")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	c.run("", "api", "user", "--timeout", "1s").must(t, 1, "Wait 90 s", "past --timeout (1s)")
}

// Headers over 256 KiB are an answer too large to read, not "Could not
// reach the server".
func TestHugeHeadersSaid(t *testing.T) {
	t.Parallel()
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i < 40; i++ {
			w.Header().Add("X-Pad", strings.Repeat("p", 8<<10))
		}
		fmt.Fprint(w, `{}`)
	}))
	r := c.run("", "api", "user")
	r.must(t, 1, "too large to read safely", "headers are over 256 KiB")
	if strings.Contains(r.stderr, "reach") {
		t.Fatalf("stderr: %s", r.stderr)
	}
}

// A usage error says its advice once: errtrack without a terminal points
// at --help in its own words, and no second "Run 'errtrack --help'" line
// follows; a flag parser's bare words still get that pointer.
func TestUsageAdviceOnce(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	r := c.run("")
	r.must(t, 2, "the console needs a terminal")
	if n := strings.Count(r.stderr, "\n"); n != 1 || strings.Count(r.stderr, "--help") != 1 {
		t.Fatalf("%d lines:\n%s", n, r.stderr)
	}
	r = c.run("", "settings", "update", "-p", "1")
	if r.code != 2 || strings.Count(r.stderr, "\n") != 1 {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	c.run("", "keys", "list", "--nope").must(t, 2, "unknown flag: --nope\nRun 'errtrack keys list --help' for usage.")
}

// keys rotate without a terminal and without --yes names, in one error,
// everything it needs: --yes, --old where the project has several keys,
// and a choice for the variables that hold the old DSN. Given them all,
// the rotation runs.
func TestRotateNoTerminalNamesEverything(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	r := c.run("", "keys", "rotate", "-p", "1")
	r.must(t, 2, "Give --yes", "--old KEY_ID (project demo/web-shop has 2 client keys", "--update-variables or --keep-variables", "nothing was changed")
	if c.server.KeyCount(1) != 2 {
		t.Fatal("keys changed")
	}
	c.run("", "keys", "rotate", "-p", "1", "--yes", "--delete-with-unread-groups", "--old", "1", "--update-variables").must(t, 0)

	r = c.run("", "keys", "rotate", "-p", "demo/mobile/ios")
	r.must(t, 2, "Give --yes (no terminal to confirm the delete on) and --update-variables or --keep-variables (SENTRY_DSN (all environments) holds the old key's DSN)")
	c.run("", "keys", "rotate", "-p", "demo/mobile/ios", "--ci-variable", "SENTRY_DSN").must(t, 2, "Give --yes (no terminal to confirm the delete on); nothing")
	c.run("", "keys", "rotate", "-p", "demo/mobile/ios", "--yes", "--delete-with-unread-groups", "--update-variables").must(t, 0)
}

// keys create answered with a user object prints no key and exits 1,
// saying the key may or may not exist and where to check.
func TestKeysCreateAnswerNotAKey(t *testing.T) {
	t.Parallel()
	s, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated)
			fmt.Fprint(w, `{"id":1,"username":"root","name":"Administrator","state":"active"}`)
			return
		}
		s.ServeHTTP(w, r)
	}))
	r := c.run("", "keys", "create", "-p", "1")
	r.must(t, 1, "not a client key", "may or may not", "errtrack keys list -p 1")
	if r.stdout != "" {
		t.Fatalf("printed as created: %q", r.stdout)
	}
	r = c.run("", "keys", "create", "-p", "1", "--json")
	if r.code != 1 || r.stdout != "" {
		t.Fatalf("--json: exit %d, %q", r.code, r.stdout)
	}
}
