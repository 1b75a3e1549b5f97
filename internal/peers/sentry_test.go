package peers

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	sentrygo "github.com/getsentry/sentry-go"

	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
)

// Sentry's own Go SDK sends events to the mock Sentry through a key's
// public DSN as it sends them to Sentry (its envelope endpoint, with
// X-Sentry-Auth): an active key's event is accepted and counted, a disabled
// key's is refused (the SDK drops it, the mock counts nothing).
func TestSentryGoSDKSendsToMockSentry(t *testing.T) {
	ctx := context.Background()
	srv := mocksentry.New(mocksentry.Options{})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	c, err := sentry.New(ts.URL, mocksentry.TokenAdmin)
	if err != nil {
		t.Fatal(err)
	}
	p := sentry.Project{Base: c.BaseURL(), Org: "demo", Slug: "legacy-api"}
	k, err := c.CreateKey(ctx, p, sentry.CreateKeyOptions{Name: "SDK"})
	if err != nil {
		t.Fatal(err)
	}
	send := func() {
		client, err := sentrygo.NewClient(sentrygo.ClientOptions{Dsn: k.DSN, Transport: sentrygo.NewHTTPSyncTransport()})
		if err != nil {
			t.Fatal(err)
		}
		hub := sentrygo.NewHub(client, sentrygo.NewScope())
		hub.CaptureMessage("errtrack peer test")
		client.Flush(5 * time.Second)
	}
	send()
	if n := srv.Events(k.ID); n != 1 {
		t.Fatalf("the SDK's event: %d accepted", n)
	}
	off := false
	if _, err := c.UpdateKey(ctx, p, k.ID, sentry.UpdateKeyOptions{Active: &off}); err != nil {
		t.Fatal(err)
	}
	send()
	if n := srv.Events(k.ID); n != 1 {
		t.Fatalf("a disabled key's event was accepted: %d", n)
	}
}
