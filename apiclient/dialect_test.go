package apiclient

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A dialect's client sends its own credential header, to its own host
// only; observers see it redacted, and the repeated request reads the
// dialect's variable.
func TestDialectTokenHeaderAndObserver(t *testing.T) {
	const token = "sntryu_0123456789abcdef"
	var got atomic.Value
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header.Get("Authorization") + "|" + r.Header.Get("PRIVATE-TOKEN") + "|" + r.URL.Path)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"secret":"s3cr3t","detail":"` + token + `"}`))
	}))
	defer ts.Close()
	var seen []Exchange
	c, err := New(ts.URL, token, WithDialect(Dialect{Prefix: "/api/0/", TokenHeader: "Authorization", TokenScheme: "Bearer", TokenVariable: "SENTRY_AUTH_TOKEN"}),
		WithObserver(func(e Exchange) { seen = append(seen, e) }))
	if err != nil {
		t.Fatal(err)
	}
	hide := func(b []byte) []byte { return []byte(strings.ReplaceAll(string(b), "s3cr3t", "[redacted]")) }
	resp, body, err := c.Send(context.Background(), Call{Path: "projects/o/p/keys/", Shown: hide})
	if err != nil || resp.StatusCode != 200 {
		t.Fatal(err)
	}
	if g := got.Load().(string); g != "Bearer "+token+"||/api/0/projects/o/p/keys/" {
		t.Fatalf("the server saw %q", g)
	}
	if strings.Contains(string(body), token) || !strings.Contains(string(body), "s3cr3t") {
		t.Fatalf("the caller's body: %s", body)
	}
	e := seen[0]
	if e.RequestHeader.Get("Authorization") != "Bearer [redacted]" || strings.Contains(string(e.ResponseBody), "s3cr3t") || strings.Contains(string(e.ResponseBody), token) {
		t.Fatalf("the observer saw %v %s", e.RequestHeader, e.ResponseBody)
	}
	if curl := e.Curl(); !strings.Contains(curl, `"Authorization: Bearer $SENTRY_AUTH_TOKEN"`) || strings.Contains(curl, token) {
		t.Fatalf("curl: %s", curl)
	}
}

// Sentry's 429 has no Retry-After: the host's pace waits until
// X-Sentry-Rate-Limit-Reset, then the request goes again.
func TestDialectSentryRateLimitReset(t *testing.T) {
	var n atomic.Int32
	now := time.Unix(1_800_000_000, 0)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("X-Sentry-Rate-Limit-Reset", strconv.FormatInt(now.Unix()+7, 10))
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(`"You are attempting to use this endpoint too frequently. Limit is 40 requests in 1 seconds"`))
			return
		}
		_, _ = w.Write([]byte(`[]`))
	}))
	defer ts.Close()
	var slept time.Duration
	clock := func() time.Time { return now.Add(slept) }
	sleep := func(_ context.Context, d time.Duration) error { slept += d; return nil }
	c, err := New(ts.URL, "t0k3n", WithDialect(Dialect{Prefix: "/api/0/", TokenHeader: "Authorization", TokenScheme: "Bearer"}), WithClock(clock, sleep))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Send(context.Background(), Call{Path: "x/"}); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 2 || slept != 7*time.Second {
		t.Fatalf("%d requests, waited %s; want 2 and 7s", n.Load(), slept)
	}
	if d, ok := SentryReset(http.Header{"X-Sentry-Rate-Limit-Reset": {"junk"}}, now); ok || d != 0 {
		t.Fatal("a reset that is not a number was read")
	}
}
