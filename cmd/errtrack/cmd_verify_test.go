package main

import (
	"net/http"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// A test event dropped by a quota (429) is worded as one, with its wait:
// not "refused", never "the key may be inactive or deleted".
func TestKeysVerifyRateLimited(t *testing.T) {
	srv, _ := mockserver.New(mockserver.Options{})
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/envelope/") {
			w.Header().Set("Retry-After", "45")
			w.Header().Set("X-Sentry-Rate-Limits", "45:default;error;security:key:key_quota")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	r := c.run("", "keys", "verify", "-p", "1", "1", "--yes")
	r.must(t, 1, "ingestion rate-limited the test event (HTTP 429, limit: key key_quota); try again in 45s", "The key was not refused")
	if strings.Contains(r.stderr, "inactive or deleted") || strings.Contains(r.stderr, "refused the test event") {
		t.Fatalf("a quota worded as a dead key: %s", r.stderr)
	}
}
