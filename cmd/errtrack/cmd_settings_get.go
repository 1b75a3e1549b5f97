package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/change"
)

// settingsGetCmd is `settings get`: the settings record, or with --web the
// project's settings page in GitLab.
func (a *app) settingsGetCmd(g *globalFlags) *cobra.Command {
	var p projectFlag
	var web bool
	cmd := &cobra.Command{
		Use:     "get --project P [--web]",
		Short:   "Show the settings",
		Example: "  errtrack settings get --project group/web-shop\n  errtrack settings get -p 42 --json\n  errtrack settings get -p 42 --web   # where a Sentry is configured",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if web {
				ctx, cancel := a.deadline(cmd.Context(), g)
				defer cancel()
				ref, c, host, err := a.projectClient(ctx, g, &p)
				if err != nil {
					return err
				}
				return a.openProjectPage(ctx, c, host, ref)
			}
			return a.showSettings(cmd, g, &p, nil, change.KeysNotRead, func(ctx context.Context, c *apiclient.Client, ref apiclient.ProjectRef) (*apiclient.Settings, error) {
				s, _, err := c.GetSettings(ctx, ref)
				return s, err
			})
		},
	}
	p.add(cmd)
	cmd.Flags().BoolVar(&web, "web", false, "open the project's error tracking settings in GitLab instead (where a Sentry is configured)")
	return cmd
}
