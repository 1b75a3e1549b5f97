package main

import (
	"github.com/spf13/cobra"
)

func (a *app) rootCmd() *cobra.Command {
	g := &globalFlags{}
	var opts consoleOptions
	root := &cobra.Command{
		Use:   "errtrack",
		Short: "A terminal console for GitLab error tracking settings and client keys",
		Long: `errtrack opens a console in which a maintainer picks a project, reads and
changes its error tracking settings, and lists, creates, copies, rotates and
deletes its client keys. The subcommands do the same from scripts.

The access token comes from GITLAB_TOKEN or the system keyring ('errtrack login').`,
		Example: `  errtrack --demo                      # try it against a built-in mock GitLab
  errtrack --host gitlab.example.com --project group/web-shop
  errtrack keys rotate --project group/web-shop`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown command %q for errtrack", args[0])
			}
			return nil
		},
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.flags = g
			return a.runConsole(cmd.Context(), opts)
		},
	}
	a.addVersionFlag(root)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError{err} })
	addHostFlags(root.Flags(), g)
	root.Flags().StringVarP(&opts.project, "project", "p", "", "open this project directly (ID or group/project)")
	root.Flags().BoolVar(&opts.demo, "demo", false, "start a built-in mock GitLab with demo data and open the console on it")

	root.AddCommand(
		a.versionCmd(),
		a.settingsCmd(), a.keysCmd(), a.loginCmd(), a.logoutCmd(), a.statusCmd(), a.authCmd(), a.mockServerCmd(), a.manCmd(),
	)
	// The completion command captures its writer when created, so set them first.
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.InitDefaultCompletionCmd()
	return root
}
