package main

// Flags and argument checks that several commands share.

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
)

// projectFlag is --project, required by the settings and keys commands.
type projectFlag struct{ raw string }

func (p *projectFlag) add(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&p.raw, "project", "p", "", "project ID, full path or URL, e.g. 42, group/project (default: the git remote's project)")
}

var errNoProject = usagef("--project is required here (no git remote of this directory names a GitLab project errtrack has a token for): give a project ID, a path such as group/project, or its URL")

func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("%s takes no arguments, got %q", cmd.CommandPath(), args[0])
	}
	return nil
}

// oneKeyID checks the arguments of a command that acts on one key.
func oneKeyID(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		return usagef("%s takes exactly one KEY_ID", cmd.CommandPath())
	}
	return nil
}

// projectClient reads --project and builds the client for its host.
// Without --project, the git remote's project is used, saying so on stderr.
func (a *app) projectClient(ctx context.Context, g *globalFlags, p *projectFlag) (apiclient.ProjectRef, *apiclient.Client, string, error) {
	var ref apiclient.ProjectRef
	var host string
	var err error
	if p.raw == "" {
		var why string
		var ok bool
		if ref, host, why, ok = a.projectFromRemote(ctx, g.host); !ok {
			return ref, nil, "", errNoProject
		}
		a.lastHost = host
		fmt.Fprintf(a.stderr, "errtrack: using %s\n", explain.Text(why))
	} else if ref, host, err = a.resolveProject(g.host, p.raw); err != nil {
		return ref, nil, "", err
	}
	c, err := a.clientFor(ctx, g, host)
	return ref, c, host, err
}

// annotKeyArg marks a command whose argument is a key ID.
const annotKeyArg = "errtrack/key-arg"

// groupFlags are the flags of a group-wide change.
type groupFlags struct {
	group           string
	subgroups, dryR bool
}

var errGroupAndProject = errors.New("--group acts on the group's projects: give --project or --group, not both")
