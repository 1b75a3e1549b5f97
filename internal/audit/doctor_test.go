package audit

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
)

func statusOf(checks []Check, name string) Check {
	for _, c := range checks {
		if strings.HasPrefix(c.Name, name) {
			return c
		}
	}
	return Check{}
}

// The doctor passes on a healthy project and names the exact cause on a
// flag-off instance, on GitLab 14.1, with an expired token, and with a
// DSN whose host does not answer.
func TestDoctor(t *testing.T) {
	ctx := context.Background()
	doctor := func(opts mockserver.Options, token string, project int64) []Check {
		_, c := flowtest.Mock(t, opts, token)
		return Doctor(ctx, c, apiclient.ProjectID(project), DoctorOptions{}, flowtest.ExplainPlain, time.Now())
	}
	healthy := doctor(mockserver.Options{}, mockserver.TokenMaintainer, 7)
	if Failed(healthy) {
		// demo/mobile/ios keeps a variable on a deleted key: that one fails.
		if c := statusOf(healthy, "CI/CD"); c.Status != CheckFail || !strings.Contains(c.Detail, "OLD_SENTRY_DSN") {
			t.Fatalf("%+v", healthy)
		}
	}
	for _, name := range []string{"server", "token", "role", "settings", "keys", "ingestion"} {
		if c := statusOf(healthy, name); c.Status != CheckOK {
			t.Fatalf("%s: %+v", name, c)
		}
	}
	if c := statusOf(doctor(mockserver.Options{NoIntegratedErrorTracking: true}, mockserver.TokenMaintainer, 1), "settings"); c.Status != CheckFail || !strings.Contains(c.Detail, "integrated_error_tracking feature flag") {
		t.Fatalf("flag off: %+v", c)
	}
	old := doctor(mockserver.Options{GitLabVersion: "14.1"}, mockserver.TokenMaintainer, 1)
	if c := statusOf(old, "error tracking API"); c.Status != CheckFail || !strings.Contains(c.Detail, "client_keys") {
		t.Fatalf("14.1: %+v", old)
	}
	// An expiring token's fix is the one that works for where it comes from.
	_, ce := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenExpiring)
	for _, o := range []DoctorOptions{{TokenRotatable: true}, {TokenEnv: "GITLAB_TOKEN"}} {
		want := "errtrack auth rotate"
		if o.TokenEnv != "" {
			want = "set GITLAB_TOKEN to it"
		}
		if c := statusOf(Doctor(ctx, ce, apiclient.ProjectID(1), o, flowtest.ExplainPlain, time.Now()), "token"); c.Status != CheckWarn || !strings.Contains(c.Fix, want) {
			t.Fatalf("%+v: %+v", o, c)
		}
	}
	if c := statusOf(doctor(mockserver.Options{}, mockserver.TokenExpired, 1), "token"); c.Status != CheckFail || !strings.Contains(strings.ToLower(c.Detail), "expired") {
		t.Fatalf("expired: %+v", c)
	}
	if c := statusOf(doctor(mockserver.Options{DSNHost: "127.0.0.1:1"}, mockserver.TokenMaintainer, 1), "ingestion"); c.Status != CheckFail || !strings.Contains(c.Detail, "127.0.0.1:1 does not answer") {
		t.Fatalf("dead DSN host: %+v", c)
	}
}
