package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/change"
)

// settingsCreateCmd is `settings create`: a PUT of both active and
// integrated.
func (a *app) settingsCreateCmd(g *globalFlags) *cobra.Command {
	var p projectFlag
	var active, integrated bool
	cmd := &cobra.Command{
		Use:     "create --project P --active=BOOL --integrated=BOOL",
		Short:   "Create the settings (PUT); integrated error tracking only",
		Example: "  errtrack settings create --project group/web-shop --active=true --integrated=true",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("active") || !cmd.Flags().Changed("integrated") {
				return usagef("settings create needs both --active=BOOL and --integrated=BOOL")
			}
			req := change.SettingsRequest{Create: true, Active: active, Integrated: &integrated}
			return a.showSettings(cmd, g, &p, &integrated, req.KeyRead(), func(ctx context.Context, c *apiclient.Client, ref apiclient.ProjectRef) (*apiclient.Settings, error) {
				return req.Send(ctx, c, ref)
			})
		},
	}
	p.add(cmd)
	cmd.Flags().BoolVar(&active, "active", false, "enable (true) or disable (false) error tracking")
	cmd.Flags().BoolVar(&integrated, "integrated", false, "use GitLab's integrated error tracking backend")
	return cmd
}
