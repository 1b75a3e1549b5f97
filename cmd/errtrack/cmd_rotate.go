package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/testevent"
	"github.com/errtrack/errtrack/internal/wording"
)

type rotateFlags struct {
	old                  int64
	oldRef, oldRaw, name string
	soft                 bool
	yes, verify          bool
	ciVar, scope         string
	updateVars, keepVars bool
	restart              bool
	// deleteUnread: --delete-with-unread-groups.
	deleteUnread bool
}

func (a *app) rotateCmd(g *globalFlags) *cobra.Command {
	var p projectFlag
	var f rotateFlags
	var gf groupFlags
	cmd := &cobra.Command{
		Use:   "rotate --project P [--old KEY_ID] [--ci-variable NAME | --update-variables | --keep-variables] [--verify]",
		Short: "Replace a client key: create a new one, check it, update the CI/CD variables, then delete the old one",
		Long: `Creates a new client key, checks that the server lists it, prints its DSN,
then deletes the old key: the one given with --old or, when the project had
exactly one key, that one.

The project's CI/CD variables that hold the old key's DSN are found before
anything changes. Asked interactively, the command names them and asks
whether to point them at the new DSN before the old key goes.
--update-variables updates them all without asking, --keep-variables leaves
them as they are, and --ci-variable NAME points NAME at the new DSN (keeping
its masked, protected and raw attributes; a missing one is created masked
and raw, not protected). With --yes and none of these, a rotation whose old
DSN a variable holds creates the new key, keeps the old one, names the
variables and exits 1: a deploy never reads the DSN of a deleted key.

--verify sends one test event with the new DSN (recorded in the project) and
goes on only if it is accepted. If anything fails after the new key exists,
the old key is left in place and the output says what state everything is
in; a step whose answer was lost is reported as one that may or may not have
happened, with the command to check.

Every rotation is written in errtrack's rotation ledger (in its state
directory; 'errtrack rotations' lists it) before its create is sent and
after each step. A rotation of the same key that stopped (an error, Ctrl+C,
a key kept) is gone on with, from whichever front end: the key it made is
used, never a second one. --restart leaves that key as it is (the ledger
names it) and makes a new one.

--group G (with --include-subgroups) runs the same rotation in every project
of the group whose --ci-variable holds the DSN of one of its keys: it shows
the plan (what changes, what is skipped and why, and the projects it would
stop in: other variables holding the old DSN without --update-variables or
--keep-variables, a group variable holding it), asks once (or --yes;
--dry-run stops there), says each project's outcome as it ends and prints a
report (--json: one object per project). Started again after an
interruption, the same command goes on where it stopped, and no project
gets two new keys: the projects already rotated are left alone until every
project the runs set out to rotate is done. --restart starts a new group
rotation instead (a key an earlier run made is still used, never made
twice). Exit 1 when a project failed, was interrupted or could not be
planned.`,
		Example: `  errtrack keys rotate --project group/web-shop
  errtrack keys rotate -p 42 --old 12 --update-variables --verify
  errtrack keys rotate --group web --include-subgroups --ci-variable SENTRY_DSN --dry-run
  errtrack keys rotate -p 42 --ci-variable SENTRY_DSN --environment-scope production --yes --json`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case cmd.Flags().Changed("old") && !parseOld(&f):
				return usagef("--old takes the key to replace: a GitLab key's ID, or a Sentry key's public key (see 'errtrack keys list')")
			case f.scope != "" && f.ciVar == "":
				return usagef("--environment-scope chooses the scope of the --ci-variable to update; give --ci-variable too")
			case f.ciVar != "" && !projectscope.ValidVariableName(f.ciVar):
				return usagef("--ci-variable %q is not a CI/CD variable name: letters, digits and _ only, up to 255", explain.Text(f.ciVar))
			case f.keepVars && f.updateVars:
				return usagef("--update-variables and --keep-variables say opposite things: give one of them")
			case gf.group != "" && p.raw != "":
				return usageError{err: errGroupAndProject}
			case gf.group != "" && f.ciVar == "":
				return usagef("--group rotates, in each project, the key whose DSN a CI/CD variable holds: name it with --ci-variable")
			case gf.group != "" && f.oldRaw != "":
				return usagef("--old names one project's key: with --group, the key is the one --ci-variable holds in each project")
			case (gf.subgroups || gf.dryR) && gf.group == "":
				return usagef("--include-subgroups and --dry-run go with --group")
			case f.restart && gf.dryR:
				return usagef("--restart forgets what earlier runs did, which a dry run does not: leave out one of them")
			case gf.group != "" && !f.yes && !gf.dryR && !a.stdinIsTTY():
				return usagef("refusing to rotate without confirmation: standard input is not a terminal, so pass --yes")
			}
			if gf.group != "" {
				return a.rotateGroup(cmd.Context(), g, gf, f)
			}
			return a.rotate(cmd.Context(), g, &p, f)
		},
	}
	p.add(cmd)
	fl := cmd.Flags()
	fl.StringVar(&f.oldRaw, "old", "", "the key to replace: its ID, or a Sentry key's public key (default: the project's only key)")
	fl.BoolVar(&f.soft, "soft", false, "a Sentry-backed project's rotation: disable the old key instead of deleting it (delete it later by running the rotation again)")
	fl.StringVar(&f.name, "name", "", "the new key's name (a Sentry-backed project's keys; default: the old key's name with today's date)")
	fl.BoolVarP(&f.yes, "yes", "y", false, "delete the old key without asking (needed when standard input is not a terminal)")
	fl.StringVar(&f.ciVar, "ci-variable", "", "CI/CD variable to point at the new DSN before the old key goes, e.g. SENTRY_DSN")
	fl.StringVar(&f.scope, "environment-scope", "", "environment scope of --ci-variable, when several variables have its name")
	fl.BoolVar(&f.updateVars, "update-variables", false, "point every CI/CD variable that holds the old DSN at the new one, without asking")
	fl.BoolVar(&f.keepVars, "keep-variables", false, "leave the CI/CD variables that hold the old DSN as they are (but the --ci-variable one)")
	fl.BoolVar(&f.deleteUnread, "delete-with-unread-groups", false, "with --yes, delete the old key even where an ancestor group's CI/CD variables could not be read (they may still hold its DSN)")
	fl.BoolVar(&f.verify, "verify", false, "send a test event with the new DSN and stop if it is refused")
	fl.StringVar(&gf.group, "group", "", "rotate in every project of this group (ID or path) the key --ci-variable holds")
	fl.BoolVar(&gf.subgroups, "include-subgroups", false, "with --group, its subgroups' projects too")
	fl.BoolVar(&gf.dryR, "dry-run", false, "with --group, show the plan and change nothing")
	fl.BoolVar(&f.restart, "restart", false, "leave the key an unfinished rotation of this key made and make a new one; with --group, start a new group rotation")
	return cmd
}

func (a *app) rotate(ctx context.Context, g *globalFlags, p *projectFlag, f rotateFlags) error {
	ref, c, host, err := a.projectClient(ctx, g, p)
	if err != nil {
		return err
	}
	led, closeLedger, err := a.rotations(host, rotation.FrontEndCommand)
	if err != nil {
		return reportedf(a, "%s Nothing was changed.", a.explain(err, "run the command again"))
	}
	defer closeLedger()
	checks := cliChecks(ref)
	r := rotation.NewRotation(ref, rotation.RotationOptions{OldID: f.old, OldRef: f.oldRef, NewName: f.name, Soft: f.soft, Resolve: a.sentryResolver(g), Variable: f.ciVar, Scope: f.scope,
		UpdateVariables: f.updateVars, KeepVariables: f.keepVars, Verify: f.verify, Confirmed: f.yes, DeleteWithUnreadGroups: f.deleteUnread,
		Ledger: led, GoOn: !f.restart, Restart: f.restart})
	explainStep := func(err error) string { return a.explain(err, "run the command again") }
	if !f.yes && !a.stdinIsTTY() {
		// Nobody can answer a question: the plan (a read) tells what the
		// command needs instead, named in one error.
		sctx, cancel := a.deadline(ctx, g)
		r, _ = r.Run(sctx, c, rotation.StepPlan)
		cancel()
		return a.rotateNeeds(g, r, f, checks, explainStep)
	}
	for step := r.Next(); step != rotation.StepDone; step = r.Next() {
		switch step {
		case rotation.StepChooseVariables:
			if r, err = a.askVariables(ctx, r, f.yes); err != nil {
				a.rotationStopped(g, r, checks, err.Error())
				return reported{err}
			}
			continue
		case rotation.StepConfirmDelete:
			ok, err := a.confirm(ctx, deleteQuestion(r))
			if err != nil {
				why := fmt.Sprintf("%v at the question", err)
				a.rotationStopped(g, r.Stop(), checks, why)
				return reported{errors.New(why)}
			}
			r = r.ConfirmDelete(ok)
			continue
		case rotation.StepVerify:
			fmt.Fprintln(a.stderr, testevent.Warning)
		}
		sctx, cancel := a.deadline(ctx, g)
		r, err = r.Run(sctx, c, step)
		cancel()
		if why, ok := groupsGuardWhy(r, err); ok {
			a.rotationStopped(g, r, checks, why)
			return reported{errors.New(why)}
		}
		if err != nil {
			return a.rotationFailed(g, r, checks, explainStep)
		}
		a.rotationProgress(step, r, host)
	}
	if r.Kept() {
		fmt.Fprintf(a.stderr, "%s %s\n", r.State(checks), deleteLater(ref, r))
	} else {
		fmt.Fprintln(a.stderr, r.State(checks))
	}
	a.printRotation(g, r)
	return nil
}

// askVariables answers the variables question: on a terminal the user does;
// with --yes nobody can, and the rotation stops with both keys.
func (a *app) askVariables(ctx context.Context, r rotation.Rotation, yes bool) (rotation.Rotation, error) {
	if r.VariablesErr != nil {
		why := "the CI/CD variables could not be read (" + strings.TrimSuffix(a.explain(r.VariablesErr, "run the command again"), ".") + "), so errtrack cannot tell whether one holds the old DSN"
		if yes {
			return r.Stop(), errors.New(why + ": the old key is kept; pass --keep-variables to delete it anyway")
		}
		fmt.Fprintf(a.stderr, "errtrack: %s.\n", explain.Text(why))
		return r.KeepVariables(), nil
	}
	if yes {
		return r.Stop(), fmt.Errorf("%s the old key's DSN, so the old key is kept: pass --update-variables to point %s at the new DSN, or --keep-variables to leave %s as %s", r.HoldsOldDSN(), itOrThem(r), itOrThem(r), itIsOrTheyAre(r))
	}
	ok, err := a.confirm(ctx, fmt.Sprintf("%s the old key's DSN.\nPoint %s at the new DSN before the old key goes (masked, protected and raw stay as they are)? [y/N] ", explain.Text(r.HoldsOldDSN()), itOrThem(r)))
	switch {
	case err != nil:
		return r.Stop(), fmt.Errorf("%w at the question", err)
	case ok:
		return r.UpdateVariables(), nil
	}
	return r.KeepVariables(), nil
}

// rotateGroup runs `keys rotate --group` with the one group driver.
func (a *app) rotateGroup(ctx context.Context, g *globalFlags, gf groupFlags, f rotateFlags) error {
	c, host, err := a.hostClient(ctx, g)
	if err != nil {
		return err
	}
	led, closeLedger, err := a.rotations(host, rotation.FrontEndGroupCommand)
	if err != nil {
		return reportedf(a, "%s Nothing was changed.", a.explain(err, "run the command again"))
	}
	defer closeLedger()
	if f.restart {
		if err := change.RestartCampaign(led, f.ciVar, f.scope); err != nil {
			return reportedf(a, "Nothing was changed: %s.", a.explain(err, "run the command again"))
		}
	}
	kind := change.RotateChange{Variable: f.ciVar, Scope: f.scope, ScopeHow: chooseScope, UpdateVariables: f.updateVars,
		KeepVariables: f.keepVars, Verify: f.verify, Ledger: led, Resolve: a.sentryResolver(g), DeleteWithUnreadGroups: f.deleteUnread}
	return a.runGroup(ctx, groupRun{g: g, gf: gf, yes: f.yes, kind: kind, c: c, host: host, noun: "changed"})
}

// parseOld reads --old: an ID or a public key.
func parseOld(f *rotateFlags) bool {
	id, ref, err := parseKeyRef(f.oldRaw)
	f.old, f.oldRef = id, ref
	return err == nil
}

// unreadGroupsWhy says which ancestor groups' variables could not be read,
// as a sentence.
// groupsGuardWhy words the rotation's refusal to let the old key go while
// group variables nobody saw hold its DSN (with --yes), or may (their
// groups could not be read), with the flag that lets it go anyway. The
// guard is the rotation's; only the words are the command line's.
func groupsGuardWhy(r rotation.Rotation, err error) (string, bool) {
	var unsafe *rotation.UnsafeDeleteError
	switch {
	case !errors.As(err, &unsafe):
		return "", false
	case unsafe.Groups:
		return r.GroupUsesWarning() + " The old key is kept: pass --keep-variables to delete it anyway.", true
	case len(unsafe.UnreadGroups()) > 0:
		return unreadGroupsWhy(r) + " The old key is kept: check them (or run with a token of the group's Owner), or pass --delete-with-unread-groups to delete it anyway.", true
	}
	return "", false
}

func unreadGroupsWhy(r rotation.Rotation) string {
	return wording.Sentence(wording.Capitalize(projectscope.GroupVariables{Unread: r.GroupsUnread}.UnreadWords()) + ": whether they hold the old DSN is unknown")
}

// rotateNeeds refuses a rotation without a terminal and without --yes,
// naming every flag it needs from what the plan read: --yes, --old when
// the project has several keys, a choice for the variables that hold the
// old DSN. Nothing was changed.
func (a *app) rotateNeeds(g *globalFlags, r rotation.Rotation, f rotateFlags, checks rotation.Checks, explainStep wording.Explainer) error {
	needs := []string{"--yes (no terminal to confirm the delete on)"}
	varsChosen := f.updateVars || f.keepVars
	step, err := r.Failed()
	var amb *rotation.AmbiguousError
	switch {
	case err == nil:
		var held []string
		for _, v := range r.Variables {
			named := f.ciVar != "" && v.Key == f.ciVar && (f.scope == "" || v.Scope == f.scope)
			if v.HoldsOld && !named {
				held = append(held, v.Label())
			}
		}
		switch {
		case r.VariablesDecided() || varsChosen:
		case r.VariablesErr != nil:
			needs = append(needs, "--keep-variables (the CI/CD variables could not be read, so nobody knows whether one holds the old DSN)")
		case len(held) > 0:
			needs = append(needs, fmt.Sprintf("--update-variables or --keep-variables (%s the old key's DSN)", strings.Join(held, ", ")+map[bool]string{true: " holds", false: " hold"}[len(held) == 1]))
		}
	case step == rotation.StepPlan && errors.As(err, &amb) && amb.Count > 1:
		needs = append(needs, fmt.Sprintf("--old KEY_ID (%s; see 'errtrack keys list -p %s')", amb, r.Project.Ref))
		if !varsChosen {
			needs = append(needs, "--update-variables or --keep-variables if a CI/CD variable holds that key's DSN")
		}
	default:
		return a.rotationFailed(g, r, checks, explainStep)
	}
	list := needs[0]
	if n := len(needs); n > 1 {
		list = strings.Join(needs[:n-1], ", ") + " and " + needs[n-1]
	}
	return usagef("refusing to rotate without confirmation: standard input is not a terminal. Give %s; nothing was changed", list)
}
