package main

// The Sentry a migration goes to, for errtrack migrate and the console.

import (
	"context"
	"errors"

	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/migrate"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
)

// migrationTo is a Sentry to migrate to, reached with its token, and what
// that token may do.
type migrationTo struct {
	base   string
	client *sentry.Client
	token  *sentry.TokenInfo
}

// migrationTarget reaches the Sentry at base with its token (for that host
// only) and reads what the token may do: a target it cannot write is then
// skipped in the plan. Its error is worded for people.
func (a *app) migrationTarget(ctx context.Context, g *globalFlags, base string) (migrationTo, error) {
	token, _, err := a.sentryTokens().For(ctx, base)
	if err != nil {
		return migrationTo{}, errors.New(sentryWords(err, base))
	}
	sc, err := sentry.New(base, token, a.sentryOptions(g)...)
	if err != nil {
		return migrationTo{}, err
	}
	info, err := sc.CheckToken(ctx)
	if err != nil {
		return migrationTo{}, errors.New(sentryWords(err, base))
	}
	return migrationTo{base: base, client: sc, token: info}, nil
}

// change is the migration to this Sentry, errtrack migrate's and the
// console's.
func (t migrationTo) change(org string, slug func(projectscope.Project) string, create bool, team string, keepIntegrated, deleteOld bool, led *rotation.Rotations) migrate.MigrateChange {
	return migrate.MigrateChange{Sentry: t.client, Base: t.base, Org: org, Slug: slug, Create: create, Team: team, CreateHow: "run with --create --team TEAM",
		KeepIntegrated: keepIntegrated, DeleteOldKeys: deleteOld, Token: t.token, Ledger: led}
}
