package change

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/keystore"
)

// A group rotation rotates a Sentry-backed project's key in its Sentry,
// beside the integrated projects' keys in GitLab: each with its backend.
func TestGroupRotationWithASentryBackedProject(t *testing.T) {
	var ss *mocksentry.Server
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ss.ServeHTTP(w, r) }))
	t.Cleanup(ts.Close)
	ss = mocksentry.New(mocksentry.Options{PublicURL: ts.URL})
	gsrv, gl := flowtest.MockOwner(t, mockserver.Options{SentryURL: ts.URL, SentryDSN: ss.DSN("demo", "legacy-api", "Production")}, mockserver.TokenMaintainer)
	sc, err := sentry.New(ts.URL, mocksentry.TokenAdmin)
	if err != nil {
		t.Fatal(err)
	}
	resolve := func(_ context.Context, apiURL string) (keystore.KeyStore, error) {
		p, err := sentry.ParseAPIURL(apiURL)
		return keystore.SentryKeys(sc, p), err
	}
	l, _ := testLedger(t)
	k := RotateChange{Variable: "SENTRY_DSN", Ledger: l, Resolve: resolve}
	p := plan(t, gl, flowtest.DemoGroup(t), true, k)
	if it := byPath(p)["demo/legacy-api"]; !it.Acts() || !strings.Contains(it.Action, `rotate key "Production"`) {
		t.Fatalf("%+v", it)
	}
	done := runPlan(t, context.Background(), p, gl, nil)
	if done.Failed() != 0 || done.Count(ResultChanged) != 3 {
		t.Fatalf("%+v", done.Items)
	}
	keys := ss.Keys("demo", "legacy-api")
	var prod, fresh bool
	for _, key := range keys {
		prod = prod || key.Label == "Production"
		fresh = fresh || strings.Contains(flowtest.VariableValue(gsrv, 3, "SENTRY_DSN", ""), key.Public)
	}
	if prod || !fresh || len(keys) != 2 {
		t.Fatalf("Sentry keys %+v, SENTRY_DSN %q", keys, flowtest.VariableValue(gsrv, 3, "SENTRY_DSN", ""))
	}
}

// A Sentry-backed project without the variable is skipped as any project
// without it is: its Sentry is never asked, so a missing Sentry token
// fails nothing.
func TestGroupRotationAsksNoSentryWithoutTheVariable(t *testing.T) {
	_, gl := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
	asked := 0
	resolve := func(context.Context, string) (keystore.KeyStore, error) {
		asked++
		return nil, errors.New("no Sentry token")
	}
	l, _ := testLedger(t)
	p := plan(t, gl, flowtest.DemoGroup(t), true, RotateChange{Variable: "SENTRY_DSN", Ledger: l, Resolve: resolve})
	if it := byPath(p)["demo/legacy-api"]; it.Result != ResultSkipped || !strings.Contains(it.Skip, "no CI/CD variable") || asked != 0 || p.Failed() != 0 {
		t.Fatalf("asked %d, %+v", asked, it)
	}
}
