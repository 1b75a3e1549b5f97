package tui

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/migrate"
	"github.com/errtrack/errtrack/internal/rotation"
)

// migrateQuestion asks where to: the Sentry's URL, then its organisation
// and team; the plan follows, asked once as every bulk change's.
func (s *projectsScreen) migrateQuestion(projects []apiclient.Project, deleteOld bool) tea.Msg {
	to := s.sh.lastMigrate
	if to.URL == "" {
		to = s.sh.deps.MigrateTo
	}
	to.DeleteOldKeys = deleteOld
	title := "Migrate the marked projects to which Sentry?"
	body := []string{"The Sentry (or a server speaking Sentry's API) the projects' errors go to from now on: its address, such as https://sentry.example.com. Its token comes from 'errtrack login --sentry URL' or SENTRY_AUTH_TOKEN, and goes to that host only."}
	if deleteOld {
		title = "Delete the integrated keys of the projects migrated to which Sentry?"
		body = []string{"The Sentry the marked projects were migrated to. Only their glet_ keys are deleted, and only where no CI/CD variable still holds their DSN."}
	}
	d := inputDialog(title, body, "Sentry: ", to.URL, "next", func(url string, _ bool) (tea.Msg, string) {
		if url == "" {
			return nil, "Give the Sentry's address."
		}
		to.URL = url
		return openDialogMsg{d: s.migrateOrgQuestion(projects, to)}, ""
	})
	return openDialogMsg{d: d}
}

// migrateOrgQuestion asks the organisation, and the team for the Sentry
// projects to make: "acme" takes existing projects only, "acme/backend"
// makes the missing ones under the team backend.
func (s *projectsScreen) migrateOrgQuestion(projects []apiclient.Project, to MigrateTarget) dialog {
	value := to.Org
	if to.Team != "" {
		value += "/" + to.Team
	}
	body := []string{
		"The organisation's slug, and the team new Sentry projects belong to: ORG/TEAM makes a project per GitLab project where none exists (named group-project, as errtrack migrate's default), ORG alone takes existing ones only.",
	}
	if to.DeleteOldKeys {
		body = []string{"The organisation's slug the projects were migrated to."}
	}
	return inputDialog("In which organisation?", body, "Organisation: ", value, "plan", func(v string, _ bool) (tea.Msg, string) {
		org, team, _ := strings.Cut(v, "/")
		if org == "" || migrate.Slugify(org) != org || (team != "" && migrate.Slugify(team) != team) {
			return nil, "An organisation's and a team's slugs are lower-case letters, digits, - and _ (ORG or ORG/TEAM)."
		}
		to.Org, to.Team = org, team
		return s.planMigration(projects, to), ""
	})
}

// planMigration is the bulk plan of a migration to to: the change is made
// (the token looked up, what it may do read) inside the plan's command.
func (s *projectsScreen) planMigration(projects []apiclient.Project, to MigrateTarget) tea.Msg {
	build, led := s.sh.deps.Migration, s.sh.deps.Rotations.WithFrontEnd(rotation.FrontEndConsoleBulk).WithUser(s.sh.userName())
	doing := "Migrating to the Sentry at " + to.URL
	if to.DeleteOldKeys {
		doing = "Deleting the integrated keys of migrated projects"
	}
	return planBulkMsg{projects: projects, migrate: &to, doing: doing, build: func(ctx context.Context) (change.Kind, error) {
		return build(ctx, to, led)
	}}
}
