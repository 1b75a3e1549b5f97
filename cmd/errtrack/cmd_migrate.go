package main

import (
	"context"
	"encoding/json"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/capread"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/migrate"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
)

type migrateFlags struct {
	to, org, slug, mapping, team string
	create, keepIntegrated       bool
	deleteOld, yes               bool
}

func (a *app) migrateCmd() *cobra.Command {
	g := &globalFlags{}
	var p projectFlag
	var gf groupFlags
	var f migrateFlags
	cmd := &cobra.Command{
		Use:   "migrate --to URL --org ORG (-p P | --group G) [--create --team T] [--delete-old-keys]",
		Short: "Carry projects off GitLab's integrated error tracking to a Sentry, proving each step",
		Long: `Moves integrated projects to a Sentry (or a server that speaks Sentry's API:
GlitchTip serves projects and keys, not names, switches or rate limits).
Per project: the target Sentry project is taken (the naming rule
--project-slug, default '{path_slug}', or a --mapping file of "path: slug")
or, with --create --team T, created; its key is taken (a new project's
"Default") or made; every project and group CI/CD variable holding one of
the project's glet_ DSNs is pointed at the Sentry DSN (scopes, masked,
protected and raw kept; each read again right before it is written); a
test event through the Sentry DSN must be accepted; then GitLab's
integrated tracking is switched off (--keep-integrated leaves it on).
GitLab's own Sentry settings are set only in its web UI (Settings >
Monitor > Error Tracking); the next run says whether they are.

The plan is shown first and asked once (--dry-run stops there): hidden
variables, variables holding another project's DSN, projects you do not
maintain and targets the Sentry token cannot write are named with the
reason. With --create it checks the organisation, the team and the token's
right to create there; slugs are kept to Sentry's rules (over 50: cut, with
a short hash; reserved: "-project" added), the same on every run. A project
whose own or group variables cannot all be read (a group you do not own)
keeps integrated tracking on and its glet_ keys. Every step is written in
errtrack's ledger: interrupted, or run again after a rename or with another
naming rule, the same command goes on with the Sentry project and key it
began with, and never makes a second one; a target another project took is
refused. The glet_ keys stay until a later run with --delete-old-keys, once
their clients moved: every variable is read again right before each delete,
and a key whose DSN one holds, or that one unread may hold, stays.

The Sentry token comes from 'errtrack login --sentry URL', or
SENTRY_AUTH_TOKEN for SENTRY_URL: only that host gets it.`,
		Example: `  errtrack migrate --to https://sentry.example.com --org acme --group web --create --team backend --dry-run
  errtrack migrate --to https://sentry.example.com --org acme -p web/shop --project-slug 'shop'
  errtrack migrate --to https://sentry.example.com --org acme --group web --delete-old-keys`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case f.to == "" || f.org == "":
				return usagef("give the Sentry (--to URL) and its organisation (--org ORG)")
			case (p.raw == "") == (gf.group == ""):
				return usagef("give the projects to migrate: --project P or --group G")
			case f.create && f.team == "":
				return usagef("--create makes missing Sentry projects under a team: give --team TEAM")
			case f.slug != "" && f.mapping != "":
				return usagef("--project-slug and --mapping both name the targets: give one")
			case gf.subgroups && gf.group == "":
				return usagef("--include-subgroups goes with --group")
			case !f.yes && !gf.dryR && !a.stdinIsTTY():
				return usagef("refusing to migrate without confirmation: standard input is not a terminal, so pass --yes (or --dry-run)")
			}
			return a.migrate(cmd.Context(), g, &p, gf, f)
		},
	}
	addHostFlags(cmd.Flags(), g)
	p.add(cmd)
	fl := cmd.Flags()
	fl.BoolVar(&g.jsonOut, "json", false, "print the report as JSON")
	fl.StringVar(&f.to, "to", "", "the Sentry to move to, e.g. https://sentry.example.com")
	fl.StringVar(&f.org, "org", "", "the Sentry organisation's slug")
	fl.StringVar(&f.slug, "project-slug", "", "the naming rule of the Sentry projects: {path_slug} (group-project), {name}, {path} (the last part); default {path_slug}")
	fl.StringVar(&f.mapping, "mapping", "", "a YAML or JSON file mapping each GitLab project path to its Sentry project slug")
	fl.BoolVar(&f.create, "create", false, "create missing Sentry projects (with --team)")
	fl.StringVar(&f.team, "team", "", "the Sentry team new projects belong to")
	fl.BoolVar(&f.keepIntegrated, "keep-integrated", false, "leave GitLab's integrated tracking on after the move")
	fl.BoolVar(&f.deleteOld, "delete-old-keys", false, "the later step: delete the migrated projects' glet_ keys, once no variable holds their DSN")
	fl.BoolVarP(&f.yes, "yes", "y", false, "run the plan without asking (needed when standard input is not a terminal)")
	fl.StringVar(&gf.group, "group", "", "migrate the projects of this group (ID or path)")
	fl.BoolVar(&gf.subgroups, "include-subgroups", false, "with --group, its subgroups' projects too")
	fl.BoolVar(&gf.dryR, "dry-run", false, "show the plan and change nothing")
	return cmd
}

func (a *app) migrate(ctx context.Context, g *globalFlags, p *projectFlag, gf groupFlags, f migrateFlags) error {
	slug, named, err := a.slugRule(f)
	if err != nil {
		return err
	}
	base, err := sentry.NormalizeBase(f.to)
	if err != nil {
		return usagef("--to: %v", err)
	}
	to, err := a.migrationTarget(ctx, g, base)
	if err != nil {
		return reportedf(a, "%s Nothing was changed.", err)
	}
	var c *apiclient.Client
	var host string
	var single apiclient.ProjectRef
	if p.raw != "" {
		single, c, host, err = a.projectClient(ctx, g, p)
	} else {
		c, host, err = a.hostClient(ctx, g)
	}
	if err != nil {
		return err
	}
	led, closeLedger, err := a.rotations(host, rotation.FrontEndMigrate)
	if err != nil {
		return reportedf(a, "%s Nothing was changed.", a.explain(err, "run the command again"))
	}
	defer closeLedger()
	led = led.WithUserOf(ctx, c)
	kind := to.change(f.org, slug, f.create, f.team, f.keepIntegrated, f.deleteOld, led)
	kind.Named = named
	r := groupRun{g: g, gf: gf, yes: f.yes, kind: kind, c: c, host: host, noun: "changed"}
	if p.raw != "" {
		r.plan = func(ctx context.Context) (change.Plan, error) {
			proj, _, err := c.GetProject(ctx, single)
			if err != nil {
				return change.Plan{Kind: kind}, err
			}
			return change.PlanProjects(ctx, c, []apiclient.Project{*proj}, kind)
		}
	}
	return a.runGroup(ctx, r)
}

// slugRule reads --project-slug or --mapping into the targets' naming,
// and which projects the mapping names.
func (a *app) slugRule(f migrateFlags) (func(projectscope.Project) string, func(projectscope.Project) bool, error) {
	if f.mapping != "" {
		b, err := capread.ReadFile(f.mapping, 4<<20)
		if err != nil {
			return nil, nil, usagef("--mapping %s: %v", explain.Text(f.mapping), err)
		}
		m := map[string]string{}
		if jerr := json.Unmarshal(b, &m); jerr != nil {
			if yerr := yaml.Unmarshal(b, &m); yerr != nil {
				return nil, nil, usagef("--mapping %s is neither JSON nor YAML of \"group/project: slug\" lines: %v", explain.Text(f.mapping), yerr)
			}
		}
		rule, named, err := migrate.SlugMapping(m)
		if err != nil {
			return nil, nil, usagef("--mapping %s: %s", explain.Text(f.mapping), explain.Text(err.Error()))
		}
		return rule, named, nil
	}
	rule, err := migrate.SlugRule(f.slug)
	if err != nil {
		return nil, nil, usagef("--project-slug: %s", explain.Text(err.Error()))
	}
	return rule, nil, nil
}
