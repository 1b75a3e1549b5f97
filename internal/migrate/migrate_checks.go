package migrate

import (
	"context"
	"errors"
	"strings"

	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/safetext"
)

// What a migration's plan checks of the Sentry before it promises a new
// project there: the organisation, the team, and the token's right to
// create in it (TeamProjectPermission, src/sentry/core/endpoints/team_projects.py).

// migrationSite is the organisation's teams as the plan read them.
type migrationSite struct {
	teams []sentry.Team
	err   error
}

// PrePlan reads the organisation's teams once: whether the organisation
// is there, and the team new projects go to.
func (k MigrateChange) PrePlan(ctx context.Context) change.Kind {
	if !k.DeleteOldKeys && k.Sentry != nil {
		teams, err := k.Sentry.ListTeams(ctx, k.Org)
		k.site = &migrationSite{teams: teams, err: err}
	}
	return k
}

// cannot says why the token or the Sentry will refuse the project's
// migration there ("" when they will not), and what may be refused.
func (k MigrateChange) cannot(exists bool) (why, note string) {
	t := k.Token
	switch {
	case t == nil || !t.ScopesKnown():
		// undescribed (a token limited to one organization): Sentry answers when asked
	case !t.CanReadKeys():
		return "the Sentry token cannot read keys there (it needs project:read)", ""
	case exists && !t.CanWriteKeys():
		return "the Sentry token cannot make or read keys there (it needs project:write)", ""
	case !exists && !t.CanWriteKeys() && !t.Has("org:write") && !t.Has("org:admin"):
		return "the Sentry token cannot create projects (it needs project:write)", ""
	case !exists && !t.CanWriteKeys():
		// Newest Sentry lets org:write create; older releases want
		// project:write (TeamProjectPermission before org scopes).
		note = "the Sentry token creates projects with org:write, which older Sentry releases refuse (they want project:write)"
	}
	if exists {
		return "", note
	}
	why, teamNote := k.teamCheck()
	if teamNote != "" {
		note = strings.TrimPrefix(note+"; "+teamNote, "; ")
	}
	return why, note
}

// orgMissing says the organisation is not there (or not seen), "" when
// it is or could not be told.
func (k MigrateChange) orgMissing() string {
	if k.site == nil || !errors.Is(k.site.err, sentry.ErrOrganizationNotFound) {
		return ""
	}
	return "the Sentry organisation " + safetext.Excerpt(k.Org, 80) + " does not exist, or the token cannot see it: check its slug"
}

// teamCheck says why a project cannot be made under the team, and what
// may be refused there.
func (k MigrateChange) teamCheck() (why, note string) {
	s := k.site
	org, team := safetext.Excerpt(k.Org, 80), safetext.Excerpt(k.Team, 80)
	switch {
	case s == nil:
		return "", ""
	case k.orgMissing() != "":
		return k.orgMissing(), ""
	case s.err != nil:
		return "", "the team " + team + " could not be checked (" + safetext.Excerpt(s.err.Error(), 120) + ")"
	}
	var names []string
	for _, t := range s.teams {
		if t.Slug == k.Team {
			if !t.IsMember && (k.Token == nil || !k.Token.Has("org:write") && !k.Token.Has("org:admin")) {
				return "", "the token's user is not in team " + team + ": Sentry may refuse a project there"
			}
			return "", ""
		}
		names = append(names, safetext.Excerpt(t.Slug, 40))
	}
	why = "the team " + team + " does not exist in the Sentry organisation " + org
	if len(names) > 0 {
		why += " (its teams: " + strings.Join(names, ", ") + ")"
	}
	return why, ""
}
