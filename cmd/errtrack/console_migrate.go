package main

import (
	"context"

	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/migrate"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/tui"
)

// migrationDeps lets the console's bulk menu migrate the marked projects
// with errtrack migrate's change: the same token lookup (the Sentry's
// host only), the same naming rule (group-project), the same ledger.
// The Sentry offered first is the demo's, else SENTRY_URL's.
func (a *app) migrationDeps(deps *tui.Deps, g *globalFlags) {
	rule, _ := migrate.SlugRule(migrate.DefaultSlugRule)
	deps.Migration = func(ctx context.Context, to tui.MigrateTarget, led *rotation.Rotations) (change.Kind, error) {
		base, err := sentry.NormalizeBase(to.URL)
		if err != nil {
			return nil, err
		}
		t, err := a.migrationTarget(ctx, g, base)
		if err != nil {
			return nil, err
		}
		k := t.change(to.Org, rule, to.Team != "", to.Team, false, to.DeleteOldKeys, led)
		k.AskTarget = true
		// The console's organisation question takes the team.
		k.CreateHow = "give the organisation as ORG/TEAM to make it"
		return k, nil
	}
	switch {
	case a.demoSentry != "":
		deps.MigrateTo = tui.MigrateTarget{URL: a.demoSentry, Org: "demo", Team: "backend"}
	case a.getenv("SENTRY_URL") != "":
		deps.MigrateTo = tui.MigrateTarget{URL: a.getenv("SENTRY_URL")}
	}
}
