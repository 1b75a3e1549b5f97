package main

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

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
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownCommand(cmd, args)
			}
			return nil
		},
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.flags = g
			if opts.demoTLS && !opts.demo {
				return usagef("--tls serves the built-in mock GitLab over HTTPS, so it needs --demo; for a GitLab with a private CA use --ca-file")
			}
			return a.runConsole(cmd.Context(), opts)
		},
	}
	a.addVersionFlag(root)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return usageError{flagWords(cmd, err)} })
	addHostFlags(root.Flags(), g)
	root.Flags().StringVarP(&opts.project, "project", "p", "", "open this project directly (ID or group/project)")
	root.Flags().BoolVar(&opts.demo, "demo", false, "start a built-in mock GitLab with demo data and open the console on it")
	root.Flags().BoolVar(&opts.demoTLS, "tls", false, "with --demo: serve the mock GitLab over HTTPS with a certificate made at start")
	root.Flags().StringVar(&opts.group, "group", "", "open the console on this group's projects (ID or path); space marks projects, ctrl+o changes the marked ones")
	root.Flags().BoolVar(&opts.subgroups, "include-subgroups", false, "with --group, its subgroups' projects too")
	root.Flags().BoolVar(&opts.accessible, "accessible", false, "no animation and no colour, for screen readers (also ACCESSIBLE=1)")
	root.Flags().StringVar(&opts.theme, "theme", "", "the console's palette: light, dark or auto, the terminal's background (also ERRTRACK_THEME, or the config file's theme)")

	root.AddCommand(
		a.versionCmd(),
		a.settingsCmd(), a.keysCmd(), a.loginCmd(), a.logoutCmd(), a.statusCmd(), a.authCmd(), a.projectsCmd(), a.auditCmd(), a.doctorCmd(), a.configCmd(), a.apiCmd(), a.mockServerCmd(), a.manCmd(),
	)
	guardGroups(root)
	a.addCompletions(root)
	// The completion command captures its writer when created, so set them first.
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.InitDefaultCompletionCmd()
	return root
}

// guardGroups makes a command group (keys, settings, auth) refuse an unknown
// subcommand: cobra would print the group's help and exit 0, or stop at a
// flag of the mistyped command ("unknown shorthand flag 'p'").
func guardGroups(cmd *cobra.Command) {
	for _, sub := range cmd.Commands() {
		guardGroups(sub)
	}
	if cmd.HasParent() && cmd.HasSubCommands() && cmd.RunE == nil && cmd.Run == nil {
		cmd.Args = cobra.ArbitraryArgs
		cmd.FParseErrWhitelist.UnknownFlags = true
		cmd.DisableFlagsInUseLine = true
		cmd.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			return unknownCommand(cmd, args)
		}
	}
}

// unknownCommand names the mistyped command and suggests the near ones.
func unknownCommand(cmd *cobra.Command, args []string) error {
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	cmd.SuggestionsMinimumDistance = 2
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return usageError{errors.New(msg)}
}

var invalidFlag = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-\w, )?(--[\w-]+)" flag`)

// flagWords rewords pflag's parse errors ("strconv.ParseBool: parsing …")
// into what the flag takes.
func flagWords(cmd *cobra.Command, err error) error {
	m := invalidFlag.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	value, name := m[1], m[2]
	f := cmd.Flags().Lookup(strings.TrimPrefix(name, "--"))
	if f == nil {
		return err
	}
	var takes string
	switch f.Value.Type() {
	case "bool":
		takes = "true or false"
	case "duration":
		takes = "a duration such as 30s, 2m or 1h"
	case "int", "int64":
		takes = "a whole number"
	case "float64":
		takes = "a number"
	default:
		return err
	}
	return fmt.Errorf("%s takes %s, not %q", name, takes, value)
}
