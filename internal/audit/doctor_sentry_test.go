package audit

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/keystore"
)

// advisesKeyCreate reports a check that sends the user to make a key.
func advisesKeyCreate(checks []Check) bool {
	for _, c := range checks {
		if c.Action.Do == ActCreateKey || strings.Contains(c.Fix, "keys create") || strings.Contains(c.Detail, "no active client key") {
			return true
		}
	}
	return false
}

func sentryDoctor(t *testing.T, w flowtest.SentryBacked, resolve keystore.SentryResolver) []Check {
	t.Helper()
	return Doctor(context.Background(), w.Client, apiclient.ProjectID(3), DoctorOptions{Resolve: resolve}, flowtest.ExplainPlain, time.Now())
}

// With an organization token (sntrys_, scope org:ci, what Sentry's token
// page and sentry-wizard make), the doctor says the token's kind and the
// scope it lacks, and never advises making a key it could not look for.
func TestDoctorOrgTokenNamesWhyKeysAreUnread(t *testing.T) {
	w := flowtest.NewSentryBackedAs(t, mocksentry.Options{}, mocksentry.TokenOrgCI)
	checks := sentryDoctor(t, w, w.Resolve)
	c := statusOf(checks, "Sentry token")
	if c.Status != CheckFail || !strings.Contains(c.Detail, "organization token (scopes org:ci)") || !strings.Contains(c.Detail, "project:read") ||
		!strings.Contains(c.Fix, "/settings/account/api/auth-tokens/") {
		t.Fatalf("%+v", c)
	}
	if advisesKeyCreate(checks) {
		t.Fatalf("advises a key creation: %+v", checks)
	}
	if c := statusOf(checks, "CI/CD variables"); c.Status != CheckSkip || !strings.Contains(c.Detail, "unknown") {
		t.Fatalf("the variables are judged without the keys: %+v", c)
	}
}

// A Sentry project that is gone (404) is named, with GitLab's settings
// page to fix; no key creation is advised.
func TestDoctorMissingSentryProject(t *testing.T) {
	w := flowtest.NewSentryBacked(t, mocksentry.Options{})
	gone := func(ctx context.Context, apiURL string) (keystore.KeyStore, error) {
		return w.Resolve(ctx, strings.Replace(apiURL, "/legacy-api/", "/deleted-api/", 1))
	}
	checks := sentryDoctor(t, w, gone)
	c := statusOf(checks, "keys")
	if c.Status != CheckFail || !strings.Contains(c.Detail, "demo/deleted-api") || !strings.Contains(c.Detail, "does not exist") ||
		!strings.Contains(c.Fix, "Settings > Monitor > Error Tracking") || !strings.Contains(c.Fix, "/-/settings/operations") {
		t.Fatalf("%+v", c)
	}
	if advisesKeyCreate(checks) {
		t.Fatalf("advises a key creation: %+v", checks)
	}
}

// A user token limited to the organization (401 on GET /api/0/) is taken
// where its routes answer: the doctor reads the keys with it.
func TestDoctorOrgLimitedToken(t *testing.T) {
	w := flowtest.NewSentryBackedAs(t, mocksentry.Options{}, mocksentry.TokenOrgScoped)
	checks := sentryDoctor(t, w, w.Resolve)
	if c := statusOf(checks, "Sentry token"); c.Status != CheckOK || !strings.Contains(c.Detail, "the organization demo") {
		t.Fatalf("%+v", checks)
	}
	if c := statusOf(checks, "keys"); c.Status != CheckOK {
		t.Fatalf("%+v", checks)
	}
}

// A personal token without project:read: the doctor names the scope it
// lacks, and advises no key creation.
func TestDoctorTokenWithoutProjectRead(t *testing.T) {
	w := flowtest.NewSentryBackedAs(t, mocksentry.Options{}, "org-reader-token")
	w.Sentry.AddToken("org-reader-token", mocksentry.Token{Scopes: []string{"org:read"}, User: "demo-maintainer"})
	checks := sentryDoctor(t, w, w.Resolve)
	if c := statusOf(checks, "Sentry token"); c.Status != CheckFail || !strings.Contains(c.Detail, "it has org:read, and keys take project:read") {
		t.Fatalf("%+v", c)
	}
	if advisesKeyCreate(checks) {
		t.Fatalf("advises a key creation: %+v", checks)
	}
}

// A variable handing out a disabled key's DSN is no current DSN: the
// doctor's variables check warns of it, as the audit's finding does,
// instead of saying every variable holds a current DSN.
func TestDoctorWarnsOfAVariableHoldingADisabledKey(t *testing.T) {
	w := flowtest.NewSentryBacked(t, mocksentry.Options{})
	prod := w.Key(t, "Production")
	w.SetVariable(t, prod.DSN)
	if _, err := w.Store.(keystore.Disabler).SetActive(context.Background(), prod, false); err != nil {
		t.Fatal(err)
	}
	c := statusOf(sentryDoctor(t, w, w.Resolve), "CI/CD variables")
	if c.Status != CheckWarn || !strings.Contains(c.Detail, "is disabled while SENTRY_DSN") || c.FixWith(func(Action) string { return "<action>" }) == "" {
		t.Fatalf("%+v", c)
	}
}
