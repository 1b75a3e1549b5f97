package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/change"
)

// settingsUpdateCmd is `settings update`: a PATCH of active, and of
// integrated where given.
func (a *app) settingsUpdateCmd(g *globalFlags) *cobra.Command {
	var p projectFlag
	var active, integrated bool
	cmd := &cobra.Command{
		Use:     "update --project P --active=BOOL [--integrated=BOOL]",
		Short:   "Enable or disable existing settings (PATCH)",
		Example: "  errtrack settings update --project group/web-shop --active=false\n  errtrack settings update -p 42 --active=true --integrated=true",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("active") {
				return usagef("settings update needs --active=BOOL (or use 'settings enable' / 'settings disable')")
			}
			return a.patchSettings(cmd, g, &p, active, &integrated)
		},
	}
	p.add(cmd)
	cmd.Flags().BoolVar(&active, "active", false, "enable (true) or disable (false) the configured settings")
	cmd.Flags().BoolVar(&integrated, "integrated", false, "switch the integrated backend on or off")
	return cmd
}

// settingsSwitchCmd is `settings enable` (enable true) or `settings
// disable`: a PATCH of active for one project, or, with --group, for each
// project of a group.
func (a *app) settingsSwitchCmd(g *globalFlags, enable bool) *cobra.Command {
	var p projectFlag
	var integrated, yes bool
	var gf groupFlags
	cmd := &cobra.Command{
		Use:     "disable --project P [--integrated=BOOL]",
		Short:   "Disable existing settings (PATCH active=false)",
		Example: "  errtrack settings disable --project group/web-shop",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if gf.group != "" {
				switch {
				case p.raw != "":
					return usageError{err: errGroupAndProject}
				case cmd.Flags().Changed("integrated"):
					return usagef("--integrated is for one project: with --group, enable keeps each project's backend (a Sentry-backed one stays on Sentry)")
				case !yes && !gf.dryR && !a.stdinIsTTY():
					return usagef("refusing to change a group without confirmation: standard input is not a terminal, so pass --yes")
				}
				return a.settingsGroup(cmd.Context(), g, gf, enable, yes)
			}
			if gf.subgroups || gf.dryR || yes {
				return usagef("--include-subgroups, --dry-run and --yes go with --group")
			}
			return a.patchSettings(cmd, g, &p, enable, &integrated)
		},
	}
	if enable {
		cmd.Use = "enable --project P [--integrated=BOOL]"
		cmd.Short = "Enable existing settings (PATCH active=true)"
		cmd.Example = "  errtrack settings enable --project group/web-shop"
	}
	p.add(cmd)
	cmd.Flags().StringVar(&gf.group, "group", "", "every project of this group (ID or path) you maintain")
	cmd.Flags().BoolVar(&gf.subgroups, "include-subgroups", false, "with --group, its subgroups' projects too")
	cmd.Flags().BoolVar(&gf.dryR, "dry-run", false, "with --group, show the plan and change nothing")
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "with --group, change without asking")
	cmd.Flags().BoolVar(&integrated, "integrated", false, "switch the integrated backend on or off")
	return cmd
}

// patchSettings sends one project's PATCH of active, and of integrated
// where its flag was given, and prints the settings it answers.
func (a *app) patchSettings(cmd *cobra.Command, g *globalFlags, p *projectFlag, active bool, integrated *bool) error {
	if !cmd.Flags().Changed("integrated") {
		integrated = nil
	}
	req := change.SettingsRequest{Active: active, Integrated: integrated}
	return a.showSettings(cmd, g, p, integrated, req.KeyRead(), func(ctx context.Context, c *apiclient.Client, ref apiclient.ProjectRef) (*apiclient.Settings, error) {
		return req.Send(ctx, c, ref)
	})
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
