package audit

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
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

// doctor --send-test-event: a rate-limited event is a warning that names
// the limit and the wait, and advises no fix of the key.
func TestDoctorRateLimitedTestEvent(t *testing.T) {
	srv, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/envelope/") {
			w.Header().Set("Retry-After", "60")
			w.Header().Set("X-Sentry-Rate-Limits", "60:default;error;security:organization:org_quota")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	c, err := apiclient.New(ts.URL, mockserver.TokenMaintainer, apiclienttest.WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	checks := Doctor(context.Background(), c, apiclient.ProjectID(1), DoctorOptions{SendTestEvent: true}, flowtest.ExplainPlain, time.Now())
	var seen bool
	for _, ch := range checks {
		if !strings.HasPrefix(ch.Name, "ingestion") {
			continue
		}
		seen = true
		if ch.Status != CheckWarn || !strings.Contains(ch.Detail, "rate-limited the test event (HTTP 429, limit: organization org_quota); try again in 1m0s") ||
			strings.Contains(ch.Fix, "inactive or deleted") {
			t.Errorf("%+v", ch)
		}
	}
	if !seen {
		t.Fatalf("no ingestion check: %+v", checks)
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
