package main

import (
	"github.com/spf13/cobra"
)

// settingsCmd is `errtrack settings`: its host and --json flags, shared by
// every subcommand; each subcommand is its own factory.
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
	cmd.AddCommand(a.settingsGetCmd(g), a.settingsCreateCmd(g), a.settingsUpdateCmd(g),
		a.settingsSwitchCmd(g, true), a.settingsSwitchCmd(g, false))
	return cmd
}
