package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/explain"
)

// settingsCall is one settings request of a settings subcommand.
type settingsCall func(context.Context, *apiclient.Client, apiclient.ProjectRef) (*apiclient.Settings, error)

// showSettings runs one settings call and prints the record it returns; the
// project's path, given an ID, is read alongside. want is the integrated value asked for,
// if any: GitLab answers 200 and keeps integrated off where its
// feature flag is off, which is a failure.
func (a *app) showSettings(cmd *cobra.Command, g *globalFlags, p *projectFlag, want *bool, keys change.NewKeyRead, call settingsCall) error {
	ctx, cancel := a.deadline(cmd.Context(), g)
	defer cancel()
	ref, c, host, err := a.projectClient(ctx, g, p)
	if err != nil {
		return err
	}
	ch, err := change.ChangeSettings(ctx, c, ref, keys, func(ctx context.Context) (*apiclient.Settings, error) { return call(ctx, c, ref) })
	write := cmd.Name() != "get"
	if err != nil && write && apiclient.OutcomeUnknown(err) {
		return reportedf(a, "%s The change may or may not have been applied: check with 'errtrack settings get -p %s'.", a.explain(err, "check"), ref)
	}
	if err != nil {
		return err
	}
	a.rememberHost(host)
	a.rememberPath(host, ch.Project)
	name, s := ch.Project.Name(), ch.Settings
	if g.jsonOut {
		if err := writeJSON(a.stdout, s); err != nil {
			return err
		}
	} else {
		printSettings(a.stdout, name, s)
	}
	if k := ch.CreatedKey; k != nil {
		a.keyCreated(host, ref, k.ID)
		if !g.jsonOut {
			fmt.Fprintf(a.stdout, "GitLab created the first client key, %d: 'errtrack keys list -p %s' shows its DSN.\n", k.ID, ref)
		}
	}
	if want != nil && *want && !s.Integrated && !s.NoIntegrated {
		return reportedf(a, "GitLab kept integrated error tracking off for %s. %s", name, explain.IntegratedUnavailable)
	}
	return nil
}
