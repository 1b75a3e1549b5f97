package main

import (
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

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
