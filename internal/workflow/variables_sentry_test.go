package workflow

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/keystore"
)

// sentryBacked is the demo project demo/legacy-api (GitLab project 3)
// reporting to the mock Sentry's demo/legacy-api, with the Sentry's
// options; resolve reaches that Sentry with its admin token.
type sentryBacked struct {
	ss      *mocksentry.Server
	gsrv    *mockserver.Server
	gl      *apiclient.Client
	store   keystore.KeyStore
	sc      *sentry.Client
	resolve keystore.SentryResolver
}

func newSentryBacked(t *testing.T, opts mocksentry.Options) sentryBacked {
	t.Helper()
	return newSentryBackedAs(t, opts, mocksentry.TokenAdmin)
}

// newSentryBackedAs is newSentryBacked with another Sentry token.
func newSentryBackedAs(t *testing.T, opts mocksentry.Options, token string) sentryBacked {
	t.Helper()
	var w sentryBacked
	ts := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) { w.ss.ServeHTTP(rw, r) }))
	t.Cleanup(ts.Close)
	opts.PublicURL = ts.URL
	w.ss = mocksentry.New(opts)
	w.gsrv, w.gl = mock(t, mockserver.Options{SentryURL: ts.URL, SentryDSN: w.ss.DSN("demo", "legacy-api", "Production")}, mockserver.TokenMaintainer)
	sc, err := sentry.New(ts.URL, token)
	if err != nil {
		t.Fatal(err)
	}
	w.sc = sc
	w.store = keystore.SentryKeys(sc, sentry.Project{Base: ts.URL, Org: "demo", Slug: "legacy-api"})
	w.resolve = func(_ context.Context, apiURL string) (keystore.KeyStore, error) {
		p, err := sentry.ParseAPIURL(apiURL)
		return keystore.SentryKeys(sc, p), err
	}
	return w
}

// key is the Sentry project's key named name, as the API lists it.
func (w sentryBacked) key(t *testing.T, name string) apiclient.ClientKey {
	t.Helper()
	keys, err := w.store.All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if k.Name == name {
			return k
		}
	}
	t.Fatalf("no key %q among %+v", name, keys)
	return apiclient.ClientKey{}
}

// setVariable sets project 3's SENTRY_DSN (created raw and masked).
func (w sentryBacked) setVariable(t *testing.T, value string) {
	t.Helper()
	ctx := context.Background()
	if _, _, err := w.gl.UpdateVariableValue(ctx, apiclient.ProjectID(3), "SENTRY_DSN", "*", value); err != nil {
		if _, _, err := w.gl.CreateVariable(ctx, apiclient.ProjectID(3), apiclient.NewVariable{Key: "SENTRY_DSN", Value: value, Raw: true, Masked: true}); err != nil {
			t.Fatal(err)
		}
	}
}

// respelled is d with its host replaced.
func respelled(t *testing.T, d, host string) string {
	t.Helper()
	at, slash := strings.Index(d, "@"), strings.LastIndex(d, "/")
	if at < 0 || slash < at {
		t.Fatalf("%q is no DSN", d)
	}
	return "https://" + d[strings.Index(d, "://")+3:at] + "@" + host + d[slash:]
}
