package main

import (
	"encoding/json"
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

// keys verify --group: one event per project, with the DSN its SENTRY_DSN
// holds; the plan first, a dry run sends nothing; projects without the
// variable or not maintained are skipped, not failed.
func TestGroupVerifyCommand(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	args := []string{"keys", "verify", "--group", "demo", "--include-subgroups"}
	c.run("", append(args, "--dry-run")...).must(t, 0, "Group demo: 2 of 8 projects to send a test event to", "demo/mobile/ios", "send a test event with the DSN of key 901", "not a Maintainer", "Dry run: nothing was sent")
	if c.server.Envelopes(1)+c.server.Envelopes(7) != 0 {
		t.Fatal("the dry run sent an event")
	}
	c.run("", args...).must(t, 2, "pass --yes")
	r := c.run("", append(args, "--yes", "--json")...)
	r.must(t, 0, "[1/2]", "[2/2]", "the test event was accepted by ingestion")
	if strings.Contains(r.stdout, "glet_") {
		t.Fatalf("the report names a public key: %s", r.stdout)
	}
	var report []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil {
		t.Fatal(err, r.stdout)
	}
	accepted := 0
	for _, x := range report {
		if x["accepted"] == true {
			accepted++
		}
	}
	if accepted != 2 || c.server.Envelopes(1) != 1 || c.server.Envelopes(7) != 1 || strings.Contains(r.stdout, "glet_") {
		t.Fatalf("events 1:%d 7:%d, report %s", c.server.Envelopes(1), c.server.Envelopes(7), r.stdout)
	}
	c.run("", "keys", "verify", "--group", "demo", "1", "--yes").must(t, 2, "give no KEY_ID")
	c.run("", "keys", "verify", "-p", "1", "1", "--dry-run").must(t, 2, "go with --group")
}

// An event refused in one project fails that project, not the run; the
// exit status says some failed.
func TestGroupVerifyRefused(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{})
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/envelope") && strings.Contains(r.URL.Path, "/7/") {
			w.WriteHeader(http.StatusForbidden)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	c.server = srv
	r := c.run("", "keys", "verify", "--group", "demo", "--include-subgroups", "--yes")
	r.must(t, 1, "1 of 8 projects failed", "key 901: ", "Key 1: the test event was accepted by ingestion")
	if srv.Envelopes(1) != 1 {
		t.Fatal("the other project's event was not sent")
	}
}
