package main

import (
	"context"
	"errors"
	"fmt"
	"regexp"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/workflow"
)

// rotation is what `keys rotate --json` prints. The variable's value is the
// new DSN, printed once as "created"; it is never repeated.
type rotation struct {
	Created  *apiclient.ClientKey     `json:"created"`
	Deleted  *apiclient.ClientKey     `json:"deleted"`
	Variable *workflow.VariableTarget `json:"variable,omitempty"`
	Verified *verifiedJSON            `json:"verified,omitempty"`
}

type verifiedJSON struct {
	Accepted bool `json:"accepted"`
	Status   int  `json:"status"`
}

// variableName is what GitLab accepts as a CI/CD variable key.
var variableName = regexp.MustCompile(`^[A-Za-z0-9_]{1,255}$`)

type rotateFlags struct {
	old          int64
	yes, verify  bool
	ciVar, scope string
}

func (a *app) rotateCmd(g *globalFlags) *cobra.Command {
	var p projectFlag
	var f rotateFlags
	cmd := &cobra.Command{
		Use:   "rotate --project P [--old KEY_ID] [--ci-variable NAME] [--verify]",
		Short: "Replace a client key: create a new one, check it, then delete the old one",
		Long: `Creates a new client key, checks that the server lists it, prints its DSN,
then deletes the old key: the one given with --old or, when the project had
exactly one key, that one.

--verify sends one test event with the new DSN (recorded in the project) and
goes on only if it is accepted. --ci-variable NAME points the project's CI/CD
variable NAME at the new DSN (keeping its masked, protected and raw
attributes; a missing one is created masked and raw, not protected) before
the old key is deleted. If anything fails after the new key exists, the old
key is left in place and the output says what state everything is in.`,
		Example: `  errtrack keys rotate --project group/web-shop
  errtrack keys rotate -p 42 --old 12 --ci-variable SENTRY_DSN --verify
  errtrack keys rotate -p 42 --ci-variable SENTRY_DSN --environment-scope production --yes --json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case cmd.Flags().Changed("old") && f.old <= 0:
				return usagef("--old takes the ID of the key to replace, a positive number (see 'errtrack keys list')")
			case f.scope != "" && f.ciVar == "":
				return usagef("--environment-scope chooses the scope of the --ci-variable to update; give --ci-variable too")
			case f.ciVar != "" && !variableName.MatchString(f.ciVar):
				return usagef("--ci-variable %q is not a CI/CD variable name: letters, digits and _ only, up to 255", explain.Text(f.ciVar))
			case !f.yes && !a.stdinIsTTY():
				return usagef("refusing to rotate without confirmation: standard input is not a terminal, so pass --yes")
			}
			return a.rotate(cmd.Context(), g, &p, f)
		},
	}
	p.add(cmd)
	fl := cmd.Flags()
	fl.Int64Var(&f.old, "old", 0, "ID of the key to replace (default: the project's only key)")
	fl.BoolVarP(&f.yes, "yes", "y", false, "delete the old key without asking (needed when standard input is not a terminal)")
	fl.StringVar(&f.ciVar, "ci-variable", "", "CI/CD variable to point at the new DSN before the old key goes, e.g. SENTRY_DSN")
	fl.StringVar(&f.scope, "environment-scope", "", "environment scope of --ci-variable, when several variables have its name")
	fl.BoolVar(&f.verify, "verify", false, "send a test event with the new DSN and stop if it is refused")
	return cmd
}

func (a *app) rotate(ctx context.Context, g *globalFlags, p *projectFlag, f rotateFlags) error {
	ref, c, host, err := a.projectClient(ctx, g, p)
	if err != nil {
		return err
	}
	pctx, cancel := a.deadline(ctx, g)
	defer cancel()
	var r workflow.Rotation
	if f.ciVar != "" {
		r, err = workflow.PlanRotationWithVariable(pctx, c, ref, f.old, f.ciVar, f.scope)
	} else {
		r, err = workflow.PlanRotation(pctx, c, ref, f.old)
	}
	var amb *workflow.AmbiguousError
	var ambVar *workflow.AmbiguousVariableError
	switch {
	case errors.As(err, &amb) && amb.Count > 1:
		return usagef("%s with --old KEY_ID (see 'errtrack keys list -p %s')", err, ref)
	case errors.As(err, &ambVar):
		return usagef("%s: choose one with --environment-scope; nothing was changed", ambVar)
	case err != nil && r.Old.ID != 0: // the keys were read; the variable's lookup failed
		return reportedf(a, "looking up the CI/CD variable %s failed, so nothing was changed: %s", explain.Text(f.ciVar), a.explain(err, "run the command again"))
	case err != nil:
		return reportedf(a, "%s Nothing was changed.", a.explain(err, "run the command again"))
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

	// stopped reports a rotation that ends with both keys: the state and
	// the new DSN, so nothing is lost.
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
	if f.verify {
		fmt.Fprintln(a.stderr, workflow.VerifyWarning)
		r, err = r.Verify(pctx, c)
		var refused *workflow.RefusedError
		switch {
		case errors.As(err, &refused):
			return stopped(refused.Error() + ", so the old key is not deleted")
		case err != nil:
			return stopped("the test event could not be sent: " + a.explain(err, "check the new key with 'errtrack keys verify'"))
		}
		fmt.Fprintf(a.stderr, "The new DSN works: the test event was accepted (HTTP %d).\n", r.Verified.StatusCode)
	}
	if len(r.Variables) > 0 {
		r, err = r.UpdateVariables(pctx, c)
		var ve *workflow.VariableError
		if errors.As(err, &ve) {
			// Running the rotation again would make yet another key: the
			// way on is to set the variable by hand.
			return stopped(fmt.Sprintf("%s failed, so the old key is not deleted: %s", ve.Step(), a.explain(ve.Err, "set it to the new DSN printed below")))
		}
		fmt.Fprintln(a.stderr, r.VariablesState())
	}
	if !f.yes {
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
		fmt.Fprintf(a.stderr, "errtrack: deleting old key %s may or may not have happened: %s\nNew key %d is in place. Check with 'errtrack keys list -p %s'; if key %d is still listed, delete it with 'errtrack keys delete --project %s %d'.\n",
			workflow.KeyLabel(r.Old), a.explain(err, "check"), r.New.ID, ref, r.Old.ID, ref, r.Old.ID)
		a.printRotation(g, r)
		return reported{err}
	case err != nil:
		return stopped("deleting the old key failed: " + a.explain(err, "delete it again"))
	}
	fmt.Fprintln(a.stderr, r.State())
	a.printRotation(g, r)
	return nil
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
		if len(r.Variables) > 0 {
			v := r.Variables[0]
			out.Variable = &v
		}
		if r.Verified != nil {
			out.Verified = &verifiedJSON{Accepted: r.Verified.Accepted, Status: r.Verified.StatusCode}
		}
		_ = writeJSON(a.stdout, out)
		return
	}
	fmt.Fprintln(a.stdout, explain.Text(r.New.DSN))
}
