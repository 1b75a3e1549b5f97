package sentry

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

// relay answers as Relay routes: only /api/ID/envelope/ is ingestion; any
// other path is forwarded to Sentry's web app, which ingests nothing (a
// 404). It records the paths it was sent.
func relay(t *testing.T, answer func(w http.ResponseWriter)) (*httptest.Server, *[]string) {
	t.Helper()
	var paths []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		if r.Method != http.MethodPost || r.URL.Path != "/api/2/envelope/" {
			http.NotFound(w, r)
			return
		}
		answer(w)
	}))
	t.Cleanup(ts.Close)
	return ts, &paths
}

// The test event goes to /api/ID/envelope/ with its slash, the one form
// Relay routes (docs/sentry-api.md, Ingestion): without it a healthy key's event
// never reaches Sentry.
func TestSendTestEventPostsToTheSlashedEnvelope(t *testing.T) {
	ts, paths := relay(t, func(w http.ResponseWriter) { w.Write([]byte(`{"id":"0123"}`)) })
	c, err := New(ts.URL, mocksentry.TokenAdmin)
	if err != nil {
		t.Fatal(err)
	}
	dsn := strings.Replace(ts.URL, "://", "://0123456789abcdef0123456789abcdef@", 1) + "/2"
	check, err := c.SendTestEvent(context.Background(), dsn, "errtrack test")
	if err != nil || !check.Accepted || check.StatusCode != http.StatusOK {
		t.Fatalf("%+v %v (paths %q)", check, err, *paths)
	}
	if len(*paths) != 1 || (*paths)[0] != "/api/2/envelope/" || !strings.HasSuffix(check.URL, "/api/2/envelope/") {
		t.Fatalf("sent to %q, URL %s", *paths, check.URL)
	}
}

// What each ingestion answer proves: 200 accepted by ingestion, 403
// refused, 429 rate-limited with the wait and the limit that dropped it
// (the key's own rate limit here, enforced by the mock Sentry per window),
// a redirect or 404 not taken at all.
func TestSendTestEventOutcomes(t *testing.T) {
	ctx := context.Background()
	_, c := mock(t, mocksentry.Options{}, mocksentry.TokenAdmin)
	k, err := c.CreateKey(ctx, legacy, CreateKeyOptions{Name: "Limited", RateLimit: &RateLimit{Window: 3600, Count: 1}})
	if err != nil {
		t.Fatal(err)
	}
	check, err := c.SendTestEvent(ctx, k.DSN, "first")
	if err != nil || check.Outcome() != apiclient.IngestAccepted || check.RetryAfter != 0 || check.Limits != nil {
		t.Fatalf("first: %+v %v", check, err)
	}
	check, err = c.SendTestEvent(ctx, k.DSN, "second")
	if err != nil || check.Outcome() != apiclient.IngestRateLimited || check.Accepted || check.RetryAfter <= 0 || check.RetryAfter > time.Hour ||
		len(check.Limits) != 1 || check.Limits[0] != "key key_quota" {
		t.Fatalf("past the key's rate limit: %+v %v", check, err)
	}
	off := false
	if _, err := c.UpdateKey(ctx, legacy, k.ID, UpdateKeyOptions{Active: &off}); err != nil {
		t.Fatal(err)
	}
	if check, err := c.SendTestEvent(ctx, k.DSN, "x"); err != nil || check.Outcome() != apiclient.IngestRefused {
		t.Fatalf("disabled: %+v %v", check, err)
	}
	for status, want := range map[int]apiclient.IngestOutcome{http.StatusFound: apiclient.IngestNotTaken, http.StatusNotFound: apiclient.IngestNotTaken, http.StatusUnauthorized: apiclient.IngestRefused} {
		c := &apiclient.DSNCheck{StatusCode: status}
		if c.Outcome() != want {
			t.Errorf("HTTP %d: %v", status, c.Outcome())
		}
	}
}

// Relay's 429 headers read as sent: Retry-After in seconds (or a date),
// X-Sentry-Rate-Limits' scopes and reasons, nothing else of its text.
func TestSendTestEventReadsRelaysRateLimitHeaders(t *testing.T) {
	ts, _ := relay(t, func(w http.ResponseWriter) {
		w.Header().Set("Retry-After", "60")
		w.Header().Set("X-Sentry-Rate-Limits", "60:default;error;security:organization:org_quota, 30::project:Spike<b>Protection, 10:error:key")
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte(`{"detail":"Sentry dropped data due to a quota or internal rate limit being reached."}`))
	})
	c, err := New(ts.URL, mocksentry.TokenAdmin)
	if err != nil {
		t.Fatal(err)
	}
	dsn := strings.Replace(ts.URL, "://", "://0123456789abcdef0123456789abcdef@", 1) + "/2"
	check, err := c.SendTestEvent(context.Background(), dsn, "x")
	if err != nil || check.Outcome() != apiclient.IngestRateLimited || check.RetryAfter != time.Minute ||
		strings.Join(check.Limits, ",") != "organization org_quota,project,key" {
		t.Fatalf("%+v %v", check, err)
	}
}
