package main

import (
	"github.com/spf13/cobra"
)

// keysCmd is `errtrack keys`: its host and --json flags, shared by every
// subcommand; each subcommand is its own factory.
func (a *app) keysCmd() *cobra.Command {
	g := &globalFlags{}
	cmd := &cobra.Command{
		Use:     "keys",
		Short:   "List, create, delete, rotate and verify a project's client keys",
		Example: "  errtrack keys list --project group/web-shop\n  errtrack keys rotate --project group/web-shop",
		Args:    noArgs,
	}
	addHostFlags(cmd.PersistentFlags(), g)
	cmd.PersistentFlags().BoolVar(&g.jsonOut, "json", false, "print the API's JSON instead of a table")
	cmd.AddCommand(a.keysListCmd(g), a.keysCreateCmd(g), a.keysDeleteCmd(g), a.keysUpdateCmd(g), a.rotateCmd(g), a.verifyCmd(g))
	return cmd
}
