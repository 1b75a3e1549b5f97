package main

import (
	"net/http"
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
