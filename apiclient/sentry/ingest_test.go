package sentry

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
