package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/safetext"
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
			ctx := cmd.Context()
			if !yes && !a.stdinIsTTY() {
				return usagef("refusing to rotate without confirmation: standard input is not a terminal, so pass --yes")
			}
			ref, c, err := a.projectClient(ctx, g, &p)
			if err != nil {
				return err
			}
			before, _, err := c.ListClientKeys(ctx, ref)
			if err != nil {
				return err
			}
			var oldKey apiclient.ClientKey
			switch {
			case old != 0:
				k, ok := findKey(before, old)
				if !ok {
					return fmt.Errorf("project %s has no client key %d: nothing was changed (see 'errtrack keys list')", safetext.Clean(ref.String()), old)
				}
				oldKey = k
			case len(before) == 1:
				oldKey = before[0]
			default:
				return usagef("project %s has %d client keys: name the one to replace with --old KEY_ID", safetext.Clean(ref.String()), len(before))
			}

			created, _, err := c.CreateClientKey(ctx, ref)
			if err != nil {
				return fmt.Errorf("creating the new key failed; old key %s is untouched. %s", keyLabel(oldKey), createFailed(err))
			}
			fmt.Fprintf(a.stderr, "Created client key %s.\nNew DSN: %s\n", keyLabel(*created), safetext.Clean(created.DSN))

			halfDone := func(why string) error {
				if g.jsonOut {
					_ = writeJSON(a.stdout, rotation{Created: created})
				}
				return reported{fmt.Errorf("%s", why)}
			}
			after, _, err := c.ListClientKeys(ctx, ref)
			if err != nil {
				fmt.Fprintf(a.stderr, "errtrack: the new key was created but could not be checked: %s\nOld key %s was kept. Check with 'errtrack keys list' and delete it when the new DSN is in use.\n",
					explain.Error(err, explain.Context{Host: a.lastHost, Retry: "run the command again"}), keyLabel(oldKey))
				return halfDone("check failed")
			}
			if _, ok := findKey(after, created.ID); !ok {
				fmt.Fprintf(a.stderr, "errtrack: the new key %d is not in the project's key list; old key %s was kept.\n", created.ID, keyLabel(oldKey))
				return halfDone("new key not listed")
			}
			if !yes {
				ok, err := a.confirm(fmt.Sprintf("Delete the old client key %s? Clients still using its DSN will stop reporting. [y/N] ", keyLabel(oldKey)))
				if err != nil || !ok {
					fmt.Fprintf(a.stderr, "Old key %s kept. Delete it later with 'errtrack keys delete --project %s %d'.\n", keyLabel(oldKey), ref.String(), oldKey.ID)
					if g.jsonOut {
						return writeJSON(a.stdout, rotation{Created: created})
					}
					fmt.Fprintln(a.stdout, safetext.Clean(created.DSN))
					return err
				}
			}
			deleted, _, err := c.DeleteClientKey(ctx, ref, oldKey.ID)
			if err != nil {
				fmt.Fprintf(a.stderr, "errtrack: the new key %d is in place, but deleting old key %s failed: %s\nDelete it later with 'errtrack keys delete --project %s %d'.\n",
					created.ID, keyLabel(oldKey), explain.Error(err, explain.Context{Host: a.lastHost, Retry: "delete it again"}), ref.String(), oldKey.ID)
				return halfDone("delete failed")
			}
			fmt.Fprintf(a.stderr, "Deleted old client key %s.\n", keyLabel(*deleted))
			if g.jsonOut {
				return writeJSON(a.stdout, rotation{Created: created, Deleted: deleted})
			}
			fmt.Fprintln(a.stdout, safetext.Clean(created.DSN))
			return nil
		},
	}
	p.add(cmd)
	cmd.Flags().Int64Var(&old, "old", 0, "ID of the key to replace (default: the project's only key)")
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "delete the old key without asking (needed when standard input is not a terminal)")
	return cmd
}
