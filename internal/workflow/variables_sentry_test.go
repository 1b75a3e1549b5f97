package workflow

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

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

// The API answers a key's DSN on o42.ingest.us.sentry.io; SENTRY_DSN holds
// it as o42.ingest.sentry.io, an older spelling of the same key (Relay
// reads the key and the project, not the host). audit and doctor count it
// as the key's, and a rotation with --update-variables points it at the
// new key before the old one goes.
func TestSentryKeyUnderAnotherHostSpelling(t *testing.T) {
	w := newSentryBacked(t, mocksentry.Options{DSNHost: "o42.ingest.us.sentry.io"})
	w.gsrv.MakeGroupOwner("demo", 1)
	ctx := context.Background()
	prod := w.key(t, "Production")
	if !strings.Contains(prod.DSN, "@o42.ingest.us.sentry.io/") {
		t.Fatalf("the API answers %s", prod.DSN)
	}
	w.setVariable(t, respelled(t, prod.DSN, "o42.ingest.sentry.io"))

	a, err := AuditProjectWith(ctx, w.gl, apiclient.ProjectID(3), AuditOptions{Resolve: w.resolve})
	if err != nil {
		t.Fatal(err)
	}
	var used []Use
	for _, k := range a.Keys {
		if k.Key.PublicKey == prod.PublicKey {
			used = k.Known()
		}
	}
	if len(used) != 1 || used[0].Variable != "SENTRY_DSN" {
		t.Fatalf("the audit finds %+v for the key, findings %+v", used, a.Findings)
	}
	noted := false
	for _, f := range a.Findings {
		noted = noted || f.Severity == SeverityInfo && strings.Contains(f.What, "on https://o42.ingest.sentry.io, where Sentry lists it on http://o42.ingest.us.sentry.io")
	}
	if !noted || a.Errors() != 0 {
		t.Fatalf("the other spelling is not noted, or is an error: %+v", a.Findings)
	}

	l, _ := testLedger(t)
	o := RotationOptions{Keys: w.store, OldRef: prod.PublicKey, NewName: "Production 2", UpdateVariables: true, Confirmed: true, Ledger: l}
	r, err := NewRotation(apiclient.ProjectID(3), o).Advance(ctx, w.gl, nil)
	if err != nil || !r.Deleted {
		t.Fatalf("%v: deleted %v, variables %+v", err, r.Deleted, r.Variables)
	}
	if v := variableValue(w.gsrv, 3, "SENTRY_DSN", ""); v != r.New.DSN {
		t.Fatalf("SENTRY_DSN holds %q, want the new key's %q", v, r.New.DSN)
	}
}

// doctor counts a variable holding a key under another host spelling as
// holding a current DSN (the DSN host here is a closed local port: the
// ingestion probe fails fast, the variables' check does not depend on it).
func TestDoctorCountsAKeyUnderAnotherHostSpelling(t *testing.T) {
	w := newSentryBacked(t, mocksentry.Options{DSNHost: "127.0.0.1:9"})
	prod := w.key(t, "Production")
	w.setVariable(t, respelled(t, prod.DSN, "localhost:9"))
	checks := Doctor(context.Background(), w.gl, apiclient.ProjectID(3), DoctorOptions{Resolve: w.resolve}, explainPlain, time.Now())
	if c := statusOf(checks, "CI/CD variables"); c.Status != CheckOK || !strings.HasPrefix(c.Detail, "1 variable holds a current DSN") {
		t.Fatalf("%+v", c)
	}
}
