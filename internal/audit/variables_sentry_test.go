package audit

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/internal/change/changetest"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/rotation"
)

// The API answers a key's DSN on o42.ingest.us.sentry.io; SENTRY_DSN holds
// it as o42.ingest.sentry.io, an older spelling of the same key (Relay
// reads the key and the project, not the host). audit and doctor count it
// as the key's, and a rotation with --update-variables points it at the
// new key before the old one goes.
func TestSentryKeyUnderAnotherHostSpelling(t *testing.T) {
	w := flowtest.NewSentryBacked(t, mocksentry.Options{DSNHost: "o42.ingest.us.sentry.io"})
	w.GitLab.MakeGroupOwner("demo", 1)
	ctx := context.Background()
	prod := w.Key(t, "Production")
	if !strings.Contains(prod.DSN, "@o42.ingest.us.sentry.io/") {
		t.Fatalf("the API answers %s", prod.DSN)
	}
	w.SetVariable(t, flowtest.Respelled(t, prod.DSN, "o42.ingest.sentry.io"))

	a, err := AuditProjectWith(ctx, w.Client, apiclient.ProjectID(3), AuditOptions{Resolve: w.Resolve})
	if err != nil {
		t.Fatal(err)
	}
	var used []rotation.Use
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

	l, _ := changetest.Ledger(t)
	o := rotation.RotationOptions{Keys: w.Store, OldRef: prod.PublicKey, NewName: "Production 2", UpdateVariables: true, Confirmed: true, Ledger: l}
	r, err := rotation.NewRotation(apiclient.ProjectID(3), o).Advance(ctx, w.Client, nil)
	if err != nil || !r.Deleted {
		t.Fatalf("%v: deleted %v, variables %+v", err, r.Deleted, r.Variables)
	}
	if v := flowtest.VariableValue(w.GitLab, 3, "SENTRY_DSN", ""); v != r.New.DSN {
		t.Fatalf("SENTRY_DSN holds %q, want the new key's %q", v, r.New.DSN)
	}
}

// doctor counts a variable holding a key under another host spelling as
// holding a current DSN (the DSN host here is a closed local port: the
// ingestion probe fails fast, the variables' check does not depend on it).
func TestDoctorCountsAKeyUnderAnotherHostSpelling(t *testing.T) {
	w := flowtest.NewSentryBacked(t, mocksentry.Options{DSNHost: "127.0.0.1:9"})
	prod := w.Key(t, "Production")
	w.SetVariable(t, flowtest.Respelled(t, prod.DSN, "localhost:9"))
	checks := Doctor(context.Background(), w.Client, apiclient.ProjectID(3), DoctorOptions{Resolve: w.Resolve}, flowtest.ExplainPlain, time.Now())
	if c := statusOf(checks, "CI/CD variables"); c.Status != CheckOK || !strings.HasPrefix(c.Detail, "1 variable holds a current DSN") {
		t.Fatalf("%+v", c)
	}
}
