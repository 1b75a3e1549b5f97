package migrate

import (
	"context"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/change/changetest"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// A user token limited to the Sentry organization (401 on GET /api/0/,
// its scopes undescribed) migrates where its routes answer: the plan does
// not count it unable, and the run goes through.
func TestMigrationWithAnOrgLimitedToken(t *testing.T) {
	w := newMigrationWorld(t, mockserver.Options{ScaleGroup: 2})
	sc, err := sentry.New(w.Base, mocksentry.TokenOrgScoped)
	if err != nil {
		t.Fatal(err)
	}
	info, err := sc.CheckToken(context.Background())
	if err != nil || info.Kind != sentry.OrgLimitedToken {
		t.Fatalf("%v %+v", err, info)
	}
	k := MigrateChange{Sentry: sc, Base: w.Base, Org: "demo", Create: true, Team: "backend", Token: info, Ledger: w.Ledger,
		Slug: func(p projectscope.Project) string { return strings.ReplaceAll(p.Path, "/", "-") }}
	p := changetest.Plan(t, w.Client, flowtest.Fleet(), false, k)
	for _, it := range p.Items {
		if strings.Contains(it.Action, "cannot") || strings.Contains(it.Skip, "cannot") {
			t.Fatalf("%+v", it)
		}
	}
	if done := changetest.RunPlan(t, context.Background(), p, w.Client, nil); done.Failed() != 0 || done.Count(change.ResultChanged) != 2 {
		t.Fatalf("%+v", done.Items)
	}
}
