package main

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/spf13/cobra"
)

// rootCmdFor builds the command tree for args: when args start with a
// subcommand's name, only that subcommand is built (a command's start is
// not spent defining the flags of a dozen others); else, for the console,
// help, completion or a name to suggest for, the whole tree.
func (a *app) rootCmdFor(args []string) *cobra.Command {
	g := &globalFlags{}
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
	}
	a.addConsole(root, g) // first: --version wraps the console's run
	a.addVersionFlag(root)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error { return usageError{err: flagWords(cmd, err), bare: true} })
	addHostFlags(root.Flags(), g)

	subcommands := []struct {
		name  string
		build func() *cobra.Command
	}{
		{"version", a.versionCmd}, {"settings", a.settingsCmd}, {"keys", a.keysCmd}, {"login", a.loginCmd},
		{"logout", a.logoutCmd}, {"status", a.statusCmd}, {"auth", a.authCmd}, {"projects", a.projectsCmd},
		{"audit", a.auditCmd}, {"check", a.checkCmd}, {"ci", a.ciCmd}, {"doctor", a.doctorCmd}, {"rotations", a.rotationsCmd}, {"migrate", a.migrateCmd},
		{"export", a.exportCmd}, {"config", a.configCmd}, {"api", a.apiCmd},
		{"mock-server", a.mockServerCmd}, {"man", a.manCmd},
	}
	only := -1
	if len(args) > 0 {
		for i, sc := range subcommands {
			if sc.name == args[0] && sc.name != "man" { // man writes every command's page
				only = i
			}
		}
	}
	for i, sc := range subcommands {
		if only < 0 || i == only {
			root.AddCommand(sc.build())
		}
	}
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
	s := cmd.SuggestionsFor(args[0])
	if len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return usageError{err: errors.New(msg), bare: len(s) == 0}
}

var invalidFlag = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^invalid argument "(.*)" for "(?:-\w, )?(--[\w-]+)" flag`)
})

// flagWords rewords pflag's parse errors ("strconv.ParseBool: parsing …")
// into what the flag takes.
func flagWords(cmd *cobra.Command, err error) error {
	m := invalidFlag().FindStringSubmatch(err.Error())
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
