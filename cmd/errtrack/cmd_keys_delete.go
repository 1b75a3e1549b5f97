package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/rotation"
)

// keysDeleteCmd is `keys delete`: one key, after a question (or, with
// --yes, a warning) that names the variables holding its DSN.
func (a *app) keysDeleteCmd(g *globalFlags) *cobra.Command {
	var p projectFlag
	var yes bool
	cmd := &cobra.Command{
		Use:         "delete --project P KEY_ID",
		Short:       "Delete a client key (asks first)",
		Example:     "  errtrack keys delete --project group/web-shop 12\n  errtrack keys delete -p 42 12 --yes   # in a script",
		Annotations: map[string]string{annotKeyArg: "yes"},
		Args:        oneKeyID,
		RunE: func(cmd *cobra.Command, args []string) error {
			id, kref, err := parseKeyRef(args[0])
			if err != nil {
				return err
			}
			if !yes && !a.stdinIsTTY() {
				return usagef("refusing to delete without confirmation: standard input is not a terminal, so pass --yes")
			}
			ctx := cmd.Context()
			ref, c, host, err := a.projectClient(ctx, g, &p)
			if err != nil {
				return err
			}
			// The key is looked up first, with the variables that hold its
			// DSN, so the question (or, with --yes, a warning) names them.
			lctx, cancel := a.deadline(ctx, g)
			var d rotation.Deletion
			store, err := a.keyStoreFor(lctx, g, c, ref, kref)
			if err == nil {
				d, err = rotation.PlanDeletionIn(lctx, c, ref, store, keyRefString(id, kref), yes)
			}
			cancel()
			var ns *rotation.NoSuchKeyError
			switch {
			case errors.As(err, &ns):
				return fmt.Errorf("project %s has no client key %s: nothing was deleted (see 'errtrack keys list -p %s')", d.Project.Name(), keyRefString(id, kref), ref)
			case err != nil:
				return err
			}
			warning := d.Warning()
			if yes {
				if warning != "" {
					fmt.Fprintf(a.stderr, "errtrack: warning: %s\n", explain.Text(warning))
				}
			} else {
				q := fmt.Sprintf("Delete client key %s of %s? Clients using its DSN will stop reporting.", rotation.KeyLabel(d.Key), d.Project.Name())
				if warning != "" {
					q += " " + warning
				}
				ok, err := a.confirm(ctx, explain.Text(q)+" [y/N] ")
				switch {
				case err != nil:
					return fmt.Errorf("%w: nothing was deleted", err)
				case !ok:
					fmt.Fprintln(a.stderr, "Nothing deleted.")
					return nil
				}
			}
			// The ledger only closes rotations the delete finishes: a
			// delete goes on without it, saying so.
			led, closeLedger, lerr := a.rotations(host, rotation.FrontEndCommand)
			if lerr != nil {
				fmt.Fprintf(a.stderr, "errtrack: warning: unfinished rotations of key %s, if any, stay open in the ledger: %s\n", keyRefString(id, kref), a.explain(lerr, "run the command again"))
			} else {
				defer closeLedger()
			}
			dctx, cancel := a.deadline(ctx, g)
			defer cancel()
			d, err = d.Run(dctx, c, led)
			switch {
			case d.Unknown:
				return reportedf(a, "%s %s", a.explain(err, "run the command again"), d.Outcome(fmt.Sprintf("check with 'errtrack keys list -p %s'", ref)))
			case err != nil:
				return err
			}
			a.rememberHost(host)
			if d.AlreadyGone {
				return reportedf(a, "%s", d.Outcome(""))
			}
			if g.jsonOut {
				return writeJSON(a.stdout, d.Key)
			}
			fmt.Fprintln(a.stdout, explain.Text(d.Outcome("")))
			return nil
		},
	}
	p.add(cmd)
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "delete without asking (needed when standard input is not a terminal)")
	return cmd
}

// keyStoreFor is where a key named by its public key (a Sentry key) is:
// the project's settings decide. A GitLab key's ID needs no read: it is
// GitLab's, and an integrated project's command stays at its round trips.
func (a *app) keyStoreFor(ctx context.Context, g *globalFlags, c *apiclient.Client, ref apiclient.ProjectRef, keyRef string) (keystore.KeyStore, error) {
	if keyRef == "" {
		return nil, nil
	}
	return keystore.StoreOf(ctx, c, ref, a.sentryResolver(g))
}
