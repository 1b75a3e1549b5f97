package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/workflow"
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
			r, err := workflow.PlanRotation(pctx, c, ref, old)
			var amb *workflow.AmbiguousError
			switch {
			case errors.As(err, &amb) && amb.Count > 1:
				return usagef("%s with --old KEY_ID (see 'errtrack keys list -p %s')", err, ref)
			case err != nil:
				return err
			}
			name := r.Project.Name()
			// deleteLater is how to finish by hand when the old key stays.
			deleteLater := fmt.Sprintf("Delete the old key once its clients use the new DSN: 'errtrack keys delete --project %s %d'.", ref, r.Old.ID)

			r, err = r.Create(pctx, c)
			if err != nil {
				if words, ok := workflow.CreateOutcomeUnknown(err, fmt.Sprintf("check with 'errtrack keys list -p %s'", ref)); ok {
					return reportedf(a, "%s %s Old key %s is untouched.", a.explain(err, "check"), words, workflow.KeyLabel(r.Old))
				}
				return reportedf(a, "creating the new key failed, so nothing was changed: %s", a.explain(err, "run the command again"))
			}
			a.rememberHost(host)
			fmt.Fprintf(a.stderr, "Created client key %s in %s.\nNew DSN: %s\n", workflow.KeyLabel(*r.New), name, explain.Text(r.New.DSN))

			// stopped reports a rotation that ends with both keys: the state
			// and the new DSN, so nothing is lost.
			stopped := func(why string) error {
				fmt.Fprintf(a.stderr, "errtrack: %s\n%s %s\n", explain.Text(why), r.State(), deleteLater)
				a.printRotation(g, r)
				return reported{errors.New(why)}
			}
			if r, err = r.Check(pctx, c); err != nil {
				var nl *workflow.NotListedError
				if errors.As(err, &nl) {
					return stopped(err.Error() + ", so the old key is not deleted")
				}
				return stopped("the new key could not be checked in the key list: " + a.explain(err, "check with 'errtrack keys list'"))
			}
			if !yes {
				ok, err := a.confirm(ctx, fmt.Sprintf("Delete the old client key %s of %s? Clients still using its DSN will stop reporting. [y/N] ", workflow.KeyLabel(r.Old), name))
				switch {
				case err != nil:
					return stopped(fmt.Sprintf("%v at the question", err))
				case !ok:
					fmt.Fprintf(a.stderr, "%s %s\n", r.State(), deleteLater)
					a.printRotation(g, r)
					return nil
				}
			}
			dctx, dcancel := a.deadline(ctx, g)
			defer dcancel()
			r, err = r.DeleteOld(dctx, c)
			switch {
			case err != nil && apiclient.OutcomeUnknown(err):
				fmt.Fprintf(a.stderr, "errtrack: deleting old key %s may or may not have happened: %s\nNew key %d is in place. Check with 'errtrack keys list -p %s'; if key %d is still listed, %s\n",
					workflow.KeyLabel(r.Old), a.explain(err, "check"), r.New.ID, ref, r.Old.ID, deleteLater)
				a.printRotation(g, r)
				return reported{err}
			case err != nil:
				return stopped("deleting the old key failed: " + a.explain(err, "delete it again"))
			}
			fmt.Fprintln(a.stderr, r.State())
			a.printRotation(g, r)
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
func (a *app) printRotation(g *globalFlags, r workflow.Rotation) {
	if g.jsonOut {
		out := rotation{Created: r.New}
		if r.Deleted {
			old := r.Old
			out.Deleted = &old
		}
		_ = writeJSON(a.stdout, out)
		return
	}
	fmt.Fprintln(a.stdout, explain.Text(r.New.DSN))
}
