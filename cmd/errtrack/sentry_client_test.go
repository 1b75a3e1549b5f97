package main

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
)

// Two Sentry-backed projects of a group plan are resolved at once (the
// plan's workers call the resolver together): resolving keeps no state of
// the command's, so go test -race finds nothing, and an error names the
// Sentry it came from, not the one resolved last.
func TestSentryErrorsNameTheirOwnHost(t *testing.T) {
	var hosts []string
	for range 2 {
		ts := httptest.NewServer(mocksentry.New(mocksentry.Options{}))
		t.Cleanup(ts.Close)
		hosts = append(hosts, ts.URL)
	}
	a := &app{getenv: func(string) string { return "" }}
	resolve := a.sentryResolver(&globalFlags{})
	ctx := context.Background()
	var wg sync.WaitGroup
	for _, h := range hosts {
		wg.Go(func() {
			// No token for either host: each refusal names its host.
			_, err := resolve(ctx, h+"/api/0/projects/demo/legacy-api/")
			if words, ok := a.sentryExplain(err); !ok || !strings.Contains(words, h) {
				t.Errorf("resolving %s: %q", h, words)
			}
		})
	}
	wg.Wait()
	// A refusal from the second Sentry after the first was resolved.
	c, err := sentry.New(hosts[1], mocksentry.TokenExpired)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.CheckToken(ctx)
	if err == nil {
		t.Fatal("an expired token was accepted")
	}
	_, _ = resolve(ctx, hosts[0]+"/api/0/projects/demo/legacy-api/")
	words, ok := a.sentryExplain(err)
	if !ok || !strings.Contains(words, hosts[1]) || strings.Contains(words, hosts[0]) {
		t.Fatalf("the second Sentry's refusal reads %q", words)
	}
}
