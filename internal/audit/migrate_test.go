package audit

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/change/changetest"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/keystore"
)

// After the migration of a project whose group's CI/CD variables the
// token cannot read (the migration's own test holds that integrated
// tracking stays on), its doctor says the group's variables may still
// hand out a glet_ DSN.
func TestDoctorAfterAMigrationWhoseGroupIsUnread(t *testing.T) {
	w := newMigrationWorld(t)
	ctx := context.Background()
	changetest.RunPlan(t, ctx, changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, w.kind(t, w.SentryClient, false)), w.Client, nil)
	checks := Doctor(ctx, w.Client, apiclient.ProjectID(1), DoctorOptions{Ledger: w.Ledger, Resolve: func(_ context.Context, apiURL string) (keystore.KeyStore, error) {
		p, err := sentry.ParseAPIURL(apiURL)
		return keystore.SentryKeys(w.SentryClient, p), err
	}}, flowtest.ExplainPlain, time.Now())
	if c := statusOf(checks, "CI/CD"); c.Status != CheckWarn || !strings.Contains(c.Detail, "group demo") {
		t.Fatalf("%+v", checks)
	}
}
