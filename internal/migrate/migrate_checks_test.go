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

// The plan checks what Sentry will refuse before it promises a new
// project: a team that does not exist (its teams named), an organisation
// that does not exist; nothing is made.
func TestMigrationPlanChecksTheOrganisationAndTheTeam(t *testing.T) {
	w := newMigrationWorld(t)
	k := w.kind(t, w.SentryClient, false)
	k.Team = "no-such-team"
	p := changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, k)
	it := changetest.ByPath(p)["demo/web-shop"]
	if it.Acts() || it.Result != change.ResultFailed || !strings.Contains(it.Skip, "the team no-such-team does not exist in the Sentry organisation demo (its teams: backend, frontend)") {
		t.Fatalf("%+v", it)
	}
	k = w.kind(t, w.SentryClient, false)
	k.Org = "nope"
	it = changetest.ByPath(changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, k))["demo/web-shop"]
	if it.Acts() || !strings.Contains(it.Skip, "organisation nope does not exist") {
		t.Fatalf("%+v", it)
	}
	k.Create = false // not only for a project to make
	it = changetest.ByPath(changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, k))["demo/web-shop"]
	if it.Acts() || !strings.Contains(it.Skip, "organisation nope does not exist") {
		t.Fatalf("%+v", it)
	}
	// A team the token's user is not in may refuse it: the plan says so.
	k = w.kind(t, w.SentryClient, false)
	k.Team = "frontend"
	if it := changetest.ByPath(changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, k))["demo/web-shop"]; !it.Acts() || !strings.Contains(it.Action, "not in team frontend") {
		t.Fatalf("%+v", it)
	}
	if w.Creates.Load() != 0 {
		t.Fatal("a plan created a Sentry project")
	}
}

// A token that may create projects only with org:write (newest Sentry
// takes it; older releases want project:write) is planned with that said;
// one with neither is refused.
func TestMigrationPlanWeighsTheTokensRightToCreate(t *testing.T) {
	w := newMigrationWorld(t)
	ctx := context.Background()
	for token, scopes := range map[string][]string{
		"orgwrite": {"org:read", "org:write", "project:read", "team:read"},
		"readonly": {"org:read", "project:read", "team:read"},
	} {
		w.Sentry.AddToken(token, mocksentry.Token{Scopes: scopes, User: "demo-maintainer"})
		sc, err := sentry.New(w.Base, token)
		if err != nil {
			t.Fatal(err)
		}
		info, err := sc.CheckToken(ctx)
		if err != nil {
			t.Fatal(err)
		}
		k := w.kind(t, sc, false)
		k.Token = info
		it := changetest.ByPath(changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, k))["demo/web-shop"]
		switch token {
		case "orgwrite":
			if !it.Acts() || !strings.Contains(it.Action, "older Sentry releases refuse") {
				t.Fatalf("%s: %+v", token, it)
			}
		default:
			if it.Acts() || !strings.Contains(it.Skip, "cannot create projects") {
				t.Fatalf("%s: %+v", token, it)
			}
		}
	}
}

// A target whose slug comes to nothing is refused in the plan: "ORG/"
// would be made anew on every run.
func TestMigrationRefusesAnEmptySlug(t *testing.T) {
	w := newMigrationWorld(t)
	k := w.kind(t, w.SentryClient, false)
	k.Slug = func(p projectscope.Project) string {
		if p.Path == "demo/web-shop" {
			return ""
		}
		return Slugify(p.Path)
	}
	it := changetest.ByPath(changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, k))["demo/web-shop"]
	if it.Acts() || !strings.Contains(it.Skip, "slug comes to nothing") {
		t.Fatalf("%+v", it)
	}
	if _, _, err := SlugMapping(map[string]string{"demo/web-shop": "!!!"}); err == nil || !strings.Contains(err.Error(), "demo/web-shop") {
		t.Fatalf("a mapping to nothing taken: %v", err)
	}
}

// A token with org:write may make a project in a team its user is not in:
// the plan does not warn of a refusal there.
func TestMigrationPlanTrustsOrgWriteOutsideTheTeam(t *testing.T) {
	w := newMigrationWorld(t)
	w.Sentry.AddToken("orgwrite-outside", mocksentry.Token{Scopes: []string{"org:read", "org:write", "project:read", "project:write", "team:read"}, User: "demo-maintainer"})
	sc, err := sentry.New(w.Base, "orgwrite-outside")
	if err != nil {
		t.Fatal(err)
	}
	info, err := sc.CheckToken(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	k := w.kind(t, sc, false)
	k.Token, k.Team = info, "frontend"
	if it := changetest.ByPath(changetest.Plan(t, w.Client, flowtest.DemoGroup(t), true, k))["demo/web-shop"]; !it.Acts() || strings.Contains(it.Action, "not in team") {
		t.Fatalf("%+v", it)
	}
}

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
