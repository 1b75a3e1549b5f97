package audit

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/internal/change/changetest"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/rotation"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

// ops/api: key 910 is held only by hidden variables (the project's
// SENTRY_DSN and the group's OPS_SENTRY_DSN), key 911 by a line of the
// dotenv file variable APP_ENV. The first is unknown, named by its hidden
// variables, never "unused"; the second is used by that line.
func TestAuditHiddenAndFileVariables(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	a, err := auditProject(context.Background(), c, apiclient.ProjectID(10))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Keys) != 2 || len(a.Unread) != 0 {
		t.Fatalf("keys %+v unread %v", a.Keys, a.Unread)
	}
	hidden, file := a.Keys[0], a.Keys[1]
	if hidden.Key.ID != 910 || !hidden.UseUnknown() {
		t.Fatalf("key 910: %+v", hidden)
	}
	var labels []string
	for _, u := range hidden.Used {
		labels = append(labels, u.Label())
	}
	if got := strings.Join(labels, "; "); got != "unknown: hidden variable SENTRY_DSN (all environments); unknown: hidden variable group ops/OPS_SENTRY_DSN (environment production)" {
		t.Errorf("key 910 used: %s", got)
	}
	if file.Key.ID != 911 || len(file.Known()) != 1 || file.Used[0].Label() != "APP_ENV (all environments), its SENTRY_DSN line" || file.Used[0].Short() != "APP_ENV:SENTRY_DSN" {
		t.Fatalf("key 911: %+v", file)
	}
	all := fmt.Sprint(a.Findings)
	if strings.Contains(all, "referenced by no CI/CD variable") || strings.Contains(all, "delete it once") {
		t.Errorf("a key a hidden variable may hold is called unused: %s", all)
	}
	if !strings.Contains(all, "whether a CI/CD variable holds the DSN of key 910") || strings.Contains(all, "key 911") {
		t.Errorf("findings: %s", all)
	}
}

// A DSN written another way than GitLab writes it (a trailing slash, the
// host in capitals, no default port) is the key's, not a key that no
// longer exists.
func TestAuditMatchesDSNsAsURLs(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	ref := apiclient.ProjectID(1)
	keys, _, err := c.ListClientKeys(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	spelled := "HTTP" + strings.TrimPrefix(keys[0].DSN, "http") + "/"
	if _, _, err := c.UpdateVariableValue(ctx, ref, "SENTRY_DSN", "*", spelled); err != nil {
		t.Fatal(err)
	}
	a, err := auditProject(ctx, c, ref)
	if err != nil {
		t.Fatal(err)
	}
	if a.Errors() != 0 || len(a.Keys[0].Known()) != 1 || a.Keys[0].Key.ID != keys[0].ID {
		t.Fatalf("keys %+v findings %+v", a.Keys, a.Findings)
	}
	// The delete question finds it too.
	d, err := rotation.PlanDeletionIn(ctx, c, ref, nil, strconv.FormatInt(keys[0].ID, 10), false)
	if err != nil || len(d.Variables) != 1 || d.Variables[0].Key != "SENTRY_DSN" {
		t.Fatalf("deletion %+v %v", d, err)
	}
}

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
