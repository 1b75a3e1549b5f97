package audit

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/change/changetest"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/keystore"
)

// A project whose group's CI/CD variables the token cannot read (a 403
// for a Maintainer who is not the group's Owner) may have its glet_ DSN
// handed out there: its migration leaves integrated tracking on, the plan
// and the report name the group, and the later step keeps its keys.
func TestMigrationKeepsIntegratedOnWhileAGroupsVariablesAreUnread(t *testing.T) {
	w := newMigrationWorld(t)
	ctx := context.Background()
	p := changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, w.kind(t, w.SentryClient, false))
	it := changetest.ByPath(p)["demo/web-shop"]
	if !it.Acts() || !strings.Contains(it.Action, "integrated tracking left on") || !strings.Contains(it.Action, "group demo") {
		t.Fatalf("the plan does not say the group's variables are unread: %+v", it)
	}
	done := changetest.ByPath(changetest.RunPlan(t, ctx, p, w.Client, nil))["demo/web-shop"]
	if done.Result != change.ResultChanged || !strings.Contains(done.Words, "integrated tracking stays on") || !strings.Contains(done.Words, "group demo") {
		t.Fatalf("%+v", done)
	}
	if s, _, err := w.Client.GetSettings(ctx, apiclient.ProjectID(1)); err != nil || !s.Active {
		t.Fatalf("integrated tracking switched off while group demo's variables are unread (%v)", err)
	}
	// Its doctor says the group's variables may still hand out a glet_ DSN.
	checks := Doctor(ctx, w.Client, apiclient.ProjectID(1), DoctorOptions{Ledger: w.Ledger, Resolve: func(_ context.Context, apiURL string) (keystore.KeyStore, error) {
		p, err := sentry.ParseAPIURL(apiURL)
		return keystore.SentryKeys(w.SentryClient, p), err
	}}, flowtest.ExplainPlain, time.Now())
	if c := statusOf(checks, "CI/CD"); c.Status != CheckWarn || !strings.Contains(c.Detail, "group demo") {
		t.Fatalf("%+v", checks)
	}
	keys := w.GitLab.KeyCount(1)
	later := changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, w.kind(t, w.SentryClient, true))
	if it := changetest.ByPath(later)["demo/web-shop"]; it.Acts() || !strings.Contains(it.Skip, "group demo") {
		t.Fatalf("the later step would delete keys a group variable may hand out: %+v", it)
	}
	changetest.RunPlan(t, ctx, later, w.Client, nil)
	if w.GitLab.KeyCount(1) != keys {
		t.Fatalf("%d glet_ keys left of %d", w.GitLab.KeyCount(1), keys)
	}
}
