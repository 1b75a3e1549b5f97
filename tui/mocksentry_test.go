package tui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/errtrack/errtrack/apiclient/apiclienttest"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/rotation"
)

type sentryWorld struct {
	g   gitlab
	ss  *mocksentry.Server
	ts  *httptest.Server // the mock Sentry's listener
	url string
	led *rotation.Rotations
}

func newSentryWorld(t *testing.T, opts mocksentry.Options) sentryWorld {
	t.Helper()
	var ss *mocksentry.Server
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ss.ServeHTTP(w, r) }))
	t.Cleanup(ts.Close)
	opts.PublicURL = ts.URL
	ss = mocksentry.New(opts)
	g := newGitLab(t, mockserver.Options{SentryURL: ts.URL, SentryDSN: ss.DSN("demo", "legacy-api", "Production")}, mockserver.TokenMaintainer)
	return sentryWorld{g: g, ss: ss, ts: ts, url: ts.URL, led: testRotations(t, g.url)}
}

// resolver is the console's Sentry: token for the mock Sentry's host only.
func (w sentryWorld) resolver(token string) keystore.SentryResolver {
	return func(ctx context.Context, apiURL string) (keystore.KeyStore, error) {
		c, p, _, err := sentry.ClientFor(ctx, sentry.Tokens{EnvToken: token, EnvURL: w.url}, apiURL, apiclienttest.WithRetries(0, 0))
		if err != nil {
			return nil, err
		}
		return keystore.SentryKeys(c, p), nil
	}
}

// console opens demo/legacy-api with the Sentry token given.
func (w sentryWorld) console(t *testing.T, token string, deps Deps) *harness {
	t.Helper()
	deps.API, deps.Host, deps.Project, deps.Rotations = w.g.api, w.g.url, "3", w.led
	if token != "" {
		deps.Sentry = w.resolver(token)
	}
	h := newHarness(t, deps)
	h.resize(130, 40) // no details beside the list: questions read whole
	return h
}

func (w sentryWorld) key(t *testing.T, label string) mocksentry.Key {
	t.Helper()
	for _, k := range w.ss.Keys("demo", "legacy-api") {
		if k.Label == label {
			return k
		}
	}
	t.Fatalf("the Sentry has no key %q: %+v", label, w.ss.Keys("demo", "legacy-api"))
	return mocksentry.Key{}
}
