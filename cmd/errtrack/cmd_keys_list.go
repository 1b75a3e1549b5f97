package main

import (
	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/internal/keystore"
)

// keysListCmd is `keys list`: the project's client keys, GitLab's or its
// Sentry project's, or with --web its settings page in GitLab.
func (a *app) keysListCmd(g *globalFlags) *cobra.Command {
	var p projectFlag
	var web bool
	cmd := &cobra.Command{
		Use:     "list --project P [--web]",
		Short:   "List the client keys",
		Example: "  errtrack keys list --project group/web-shop\n  errtrack keys list -p 42 --json | jq -r '.[].errtracker_dsn'",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := a.deadline(cmd.Context(), g)
			defer cancel()
			ref, c, host, err := a.projectClient(ctx, g, &p)
			if err != nil {
				return err
			}
			if web {
				return a.openProjectPage(ctx, c, host, ref)
			}
			store, keys, err := keystore.KeysOf(ctx, c, ref, a.sentryResolver(g))
			if err != nil {
				return err
			}
			a.rememberHost(host)
			return a.printStoreKeys(g, store, keys)
		},
	}
	p.add(cmd)
	cmd.Flags().BoolVar(&web, "web", false, "open the project's error tracking settings in GitLab instead")
	return cmd
}
