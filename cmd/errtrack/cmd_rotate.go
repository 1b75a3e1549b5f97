package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
)

// rotation is what `keys rotate --json` prints.
type rotation struct {
	Created *apiclient.ClientKey `json:"created"`
	Deleted *apiclient.ClientKey `json:"deleted"`
}

func (a *app) rotateCmd(g *globalFlags) *cobra.Command {
	var p projectFlag
	var old int64
	var yes bool
	cmd := &cobra.Command{
		Use:   "rotate --project P [--old KEY_ID]",
		Short: "Replace a client key: create a new one, check it, then delete the old one",
		Long: `Creates a new client key, checks that the server lists it, prints its DSN,
then deletes the old key: the one given with --old or, when the project had
exactly one key, that one. If anything fails after the new key exists, the
old key is left in place and the new one is printed, so nothing is lost.`,
		Example: "  errtrack keys rotate --project group/web-shop\n  errtrack keys rotate -p 42 --old 12 --yes --json",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("old") && old <= 0 {
				return usagef("--old takes the ID of the key to replace, a positive number (see 'errtrack keys list')")
			}
			if !yes && !a.stdinIsTTY() {
				return usagef("refusing to rotate without confirmation: standard input is not a terminal, so pass --yes")
			}
			ctx := cmd.Context()
			ref, c, host, err := a.projectClient(ctx, g, &p)
			if err != nil {
				return err
			}
			pctx, cancel := a.deadline(ctx, g)
			defer cancel()
			before, _, err := c.ListClientKeys(pctx, ref)
			if err != nil {
				return err
			}
			var oldKey apiclient.ClientKey
			switch {
			case old != 0:
				k, ok := findKey(before, old)
				if !ok {
					return fmt.Errorf("project %s has no client key %d: nothing was changed (see 'errtrack keys list -p %s')", ref, old, ref)
				}
				oldKey = k
			case len(before) == 1:
				oldKey = before[0]
			default:
				return usagef("project %s has %d client keys: name the one to replace with --old KEY_ID", ref, len(before))
			}

			created, _, err := c.CreateClientKey(pctx, ref)
			if err != nil {
				if apiclient.OutcomeUnknown(err) {
					return reportedf(a, "%s The new key may have been created anyway; old key %s is untouched. Check with 'errtrack keys list -p %s' before trying again.", a.explain(err, "check"), keyLabel(oldKey), ref)
				}
				return reportedf(a, "creating the new key failed, so nothing was changed (old key %s is untouched): %s", keyLabel(oldKey), a.explain(err, "run the command again"))
			}
			a.rememberHost(host)
			fmt.Fprintf(a.stderr, "Created client key %s.\nNew DSN: %s\n", keyLabel(*created), explain.Text(created.DSN))

			// kept reports the state when the old key stays: both keys exist
			// and the new DSN is printed, so nothing is lost.
			kept := func(why string) error {
				fmt.Fprintf(a.stderr, "errtrack: %s\nBoth keys exist: new key %d is in place, old key %s was kept. Delete the old key once its clients use the new DSN: 'errtrack keys delete --project %s %d'.\n",
					explain.Text(why), created.ID, keyLabel(oldKey), ref, oldKey.ID)
				a.printRotation(g, rotation{Created: created})
				return reported{errors.New(why)}
			}
			after, _, err := c.ListClientKeys(pctx, ref)
			if err != nil {
				return kept("the new key was created but could not be checked in the key list: " + a.explain(err, "check with 'errtrack keys list'"))
			}
			if _, ok := findKey(after, created.ID); !ok {
				return kept(fmt.Sprintf("the new key %d is not in the project's key list, so the old key is not deleted", created.ID))
			}
			if !yes {
				ok, err := a.confirm(ctx, fmt.Sprintf("Delete the old client key %s? Clients still using its DSN will stop reporting. [y/N] ", keyLabel(oldKey)))
				switch {
				case err != nil:
					return kept(fmt.Sprintf("%v at the question", err))
				case !ok:
					fmt.Fprintf(a.stderr, "Old key %s kept; new key %d is in place. Delete the old key later with 'errtrack keys delete --project %s %d'.\n", keyLabel(oldKey), created.ID, ref, oldKey.ID)
					a.printRotation(g, rotation{Created: created})
					return nil
				}
			}
			dctx, dcancel := a.deadline(ctx, g)
			defer dcancel()
			deleted, resp, err := c.DeleteClientKey(dctx, ref, oldKey.ID)
			switch {
			case errors.Is(err, apiclient.ErrKeyNotFound):
				fmt.Fprintf(a.stderr, "Old client key %s was already gone (deleted elsewhere).\n", keyLabel(oldKey))
				deleted = &apiclient.ClientKey{ID: oldKey.ID}
			case err != nil && apiclient.OutcomeUnknown(err):
				fmt.Fprintf(a.stderr, "errtrack: the new key %d is in place, but deleting old key %s may or may not have happened: %s\nCheck with 'errtrack keys list -p %s'; if key %d is still listed, delete it once its clients use the new DSN: 'errtrack keys delete --project %s %d'.\n",
					created.ID, keyLabel(oldKey), a.explain(err, "check"), ref, oldKey.ID, ref, oldKey.ID)
				a.printRotation(g, rotation{Created: created})
				return reported{err}
			case err != nil:
				return kept("deleting the old key failed: " + a.explain(err, "delete it again"))
			case resp.AlreadyGone:
				fmt.Fprintf(a.stderr, "Deleted old client key %d: the server no longer has it (the first attempt went through before its answer was lost).\n", oldKey.ID)
			default:
				fmt.Fprintf(a.stderr, "Deleted old client key %s.\n", keyLabel(*deleted))
			}
			a.printRotation(g, rotation{Created: created, Deleted: deleted})
			return nil
		},
	}
	p.add(cmd)
	cmd.Flags().Int64Var(&old, "old", 0, "ID of the key to replace (default: the project's only key)")
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "delete the old key without asking (needed when standard input is not a terminal)")
	return cmd
}

// printRotation prints the outcome on stdout: the JSON record, or the new
// DSN alone so `DSN=$(errtrack keys rotate …)` works.
func (a *app) printRotation(g *globalFlags, r rotation) {
	if g.jsonOut {
		_ = writeJSON(a.stdout, r)
		return
	}
	fmt.Fprintln(a.stdout, explain.Text(r.Created.DSN))
}
