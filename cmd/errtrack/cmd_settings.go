package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/explain"
)

func (a *app) settingsCmd() *cobra.Command {
	g := &globalFlags{}
	cmd := &cobra.Command{
		Use:     "settings",
		Short:   "Read and change a project's error tracking settings",
		Example: "  errtrack settings get --project group/web-shop\n  errtrack settings disable --project group/web-shop",
		Args:    noArgs,
	}
	addHostFlags(cmd.PersistentFlags(), g)
	cmd.PersistentFlags().BoolVar(&g.jsonOut, "json", false, "print the API's JSON object instead of a record")

	// show runs one settings call and prints the record it returns; the
	// project's path, given an ID, is read alongside. want is the integrated value asked for,
	// if any: GitLab answers 200 and keeps integrated off where its
	// feature flag is off, which is a failure.
	show := func(cmd *cobra.Command, p *projectFlag, want *bool, keys change.NewKeyRead, call func(context.Context, *apiclient.Client, apiclient.ProjectRef) (*apiclient.Settings, error)) error {
		ctx, cancel := a.deadline(cmd.Context(), g)
		defer cancel()
		ref, c, host, err := a.projectClient(ctx, g, p)
		if err != nil {
			return err
		}
		ch, err := change.ChangeSettings(ctx, c, ref, keys, func(ctx context.Context) (*apiclient.Settings, error) { return call(ctx, c, ref) })
		write := cmd.Name() != "get"
		if err != nil && write && apiclient.OutcomeUnknown(err) {
			return reportedf(a, "%s The change may or may not have been applied: check with 'errtrack settings get -p %s'.", a.explain(err, "check"), ref)
		}
		if err != nil {
			return err
		}
		a.rememberHost(host)
		a.rememberPath(host, ch.Project)
		name, s := ch.Project.Name(), ch.Settings
		if g.jsonOut {
			if err := writeJSON(a.stdout, s); err != nil {
				return err
			}
		} else {
			printSettings(a.stdout, name, s)
		}
		if k := ch.CreatedKey; k != nil {
			a.keyCreated(host, ref, k.ID)
			if !g.jsonOut {
				fmt.Fprintf(a.stdout, "GitLab created the first client key, %d: 'errtrack keys list -p %s' shows its DSN.\n", k.ID, ref)
			}
		}
		if want != nil && *want && !s.Integrated && !s.NoIntegrated {
			return reportedf(a, "GitLab kept integrated error tracking off for %s. %s", name, explain.IntegratedUnavailable)
		}
		return nil
	}

	var getP projectFlag
	var getWeb bool
	get := &cobra.Command{
		Use:     "get --project P [--web]",
		Short:   "Show the settings",
		Example: "  errtrack settings get --project group/web-shop\n  errtrack settings get -p 42 --json\n  errtrack settings get -p 42 --web   # where a Sentry is configured",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if getWeb {
				ctx, cancel := a.deadline(cmd.Context(), g)
				defer cancel()
				ref, c, host, err := a.projectClient(ctx, g, &getP)
				if err != nil {
					return err
				}
				return a.openProjectPage(ctx, c, host, ref)
			}
			return show(cmd, &getP, nil, change.KeysNotRead, func(ctx context.Context, c *apiclient.Client, ref apiclient.ProjectRef) (*apiclient.Settings, error) {
				s, _, err := c.GetSettings(ctx, ref)
				return s, err
			})
		},
	}
	getP.add(get)
	get.Flags().BoolVar(&getWeb, "web", false, "open the project's error tracking settings in GitLab instead (where a Sentry is configured)")

	var createP projectFlag
	var cActive, cIntegrated bool
	create := &cobra.Command{
		Use:     "create --project P --active=BOOL --integrated=BOOL",
		Short:   "Create the settings (PUT); integrated error tracking only",
		Example: "  errtrack settings create --project group/web-shop --active=true --integrated=true",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("active") || !cmd.Flags().Changed("integrated") {
				return usagef("settings create needs both --active=BOOL and --integrated=BOOL")
			}
			req := change.SettingsRequest{Create: true, Active: cActive, Integrated: &cIntegrated}
			return show(cmd, &createP, &cIntegrated, req.KeyRead(), func(ctx context.Context, c *apiclient.Client, ref apiclient.ProjectRef) (*apiclient.Settings, error) {
				return req.Send(ctx, c, ref)
			})
		},
	}
	createP.add(create)
	create.Flags().BoolVar(&cActive, "active", false, "enable (true) or disable (false) error tracking")
	create.Flags().BoolVar(&cIntegrated, "integrated", false, "use GitLab's integrated error tracking backend")

	update := func(use, short, example string, fixed *bool) *cobra.Command {
		var p projectFlag
		var active, integrated, yesFlag bool
		var gf groupFlags
		cmd := &cobra.Command{
			Use: use, Short: short, Example: example, Args: noArgs,
			RunE: func(cmd *cobra.Command, _ []string) error {
				if gf.group != "" {
					switch {
					case p.raw != "":
						return usageError{err: errGroupAndProject}
					case cmd.Flags().Changed("integrated"):
						return usagef("--integrated is for one project: with --group, enable keeps each project's backend (a Sentry-backed one stays on Sentry)")
					case !yesFlag && !gf.dryR && !a.stdinIsTTY():
						return usagef("refusing to change a group without confirmation: standard input is not a terminal, so pass --yes")
					}
					return a.settingsGroup(cmd.Context(), g, gf, *fixed, yesFlag)
				}
				if gf.subgroups || gf.dryR || yesFlag {
					return usagef("--include-subgroups, --dry-run and --yes go with --group")
				}
				act := active
				if fixed != nil {
					act = *fixed
				} else if !cmd.Flags().Changed("active") {
					return usagef("settings update needs --active=BOOL (or use 'settings enable' / 'settings disable')")
				}
				var integ *bool
				if cmd.Flags().Changed("integrated") {
					integ = &integrated
				}
				req := change.SettingsRequest{Active: act, Integrated: integ}
				return show(cmd, &p, integ, req.KeyRead(), func(ctx context.Context, c *apiclient.Client, ref apiclient.ProjectRef) (*apiclient.Settings, error) {
					return req.Send(ctx, c, ref)
				})
			},
		}
		p.add(cmd)
		if fixed == nil {
			cmd.Flags().BoolVar(&active, "active", false, "enable (true) or disable (false) the configured settings")
		} else {
			cmd.Flags().StringVar(&gf.group, "group", "", "every project of this group (ID or path) you maintain")
			cmd.Flags().BoolVar(&gf.subgroups, "include-subgroups", false, "with --group, its subgroups' projects too")
			cmd.Flags().BoolVar(&gf.dryR, "dry-run", false, "with --group, show the plan and change nothing")
			cmd.Flags().BoolVarP(&yesFlag, "yes", "y", false, "with --group, change without asking")
		}
		cmd.Flags().BoolVar(&integrated, "integrated", false, "switch the integrated backend on or off")
		return cmd
	}
	yes, no := true, false
	cmd.AddCommand(get, create,
		update("update --project P --active=BOOL [--integrated=BOOL]", "Enable or disable existing settings (PATCH)",
			"  errtrack settings update --project group/web-shop --active=false\n  errtrack settings update -p 42 --active=true --integrated=true", nil),
		update("enable --project P [--integrated=BOOL]", "Enable existing settings (PATCH active=true)", "  errtrack settings enable --project group/web-shop", &yes),
		update("disable --project P [--integrated=BOOL]", "Disable existing settings (PATCH active=false)", "  errtrack settings disable --project group/web-shop", &no),
	)
	return cmd
}

// settingsGroup runs `settings enable|disable --group` with the one group
// driver.
func (a *app) settingsGroup(ctx context.Context, g *globalFlags, gf groupFlags, enable, yes bool) error {
	c, host, err := a.hostClient(ctx, g)
	if err != nil {
		return err
	}
	return a.runGroup(ctx, groupRun{g: g, gf: gf, yes: yes, kind: change.SettingsChange{Enable: enable}, c: c, host: host, noun: "changed"})
}
