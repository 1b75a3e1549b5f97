package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/workflow"
)

// groupFlags are the flags of a group-wide change.
type groupFlags struct {
	group           string
	subgroups, dryR bool
}

// groupItemJSON is one project of a group change's --json report: never a
// DSN nor a variable's value.
type groupItemJSON struct {
	Project   string         `json:"project"`
	ProjectID int64          `json:"project_id"`
	Action    string         `json:"action"`
	Result    string         `json:"result,omitempty"`
	OldKeyID  int64          `json:"old_key_id,omitempty"`
	NewKeyID  int64          `json:"new_key_id,omitempty"`
	Variables []variableJSON `json:"variables,omitempty"`
	Error     string         `json:"error,omitempty"`
}

// stateDir is where errtrack keeps journals: ERRTRACK_STATE_DIR, else the
// XDG state directory.
func (a *app) stateDir() (string, error) {
	if d := a.getenv("ERRTRACK_STATE_DIR"); d != "" {
		return d, nil
	}
	if d := a.getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "errtrack"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "state", "errtrack"), nil
}

// groupJournal opens the journal of the rotations of the keys variable
// holds on host: the same file for every group and for the console's
// rotations of marked projects, so a run interrupted in one goes on in
// the other without creating a project's key twice.
func (a *app) groupJournal(host, variable string) (*workflow.Journal, error) {
	dir, err := a.stateDir()
	if err != nil {
		return nil, fmt.Errorf("no place for the group rotation's journal (%w): set ERRTRACK_STATE_DIR", err)
	}
	return workflow.OpenJournal(workflow.GroupJournalPath(dir, host, variable))
}

// rotateGroup runs `keys rotate --group`: the plan, one question, the
// rotations with progress, and the report.
func (a *app) rotateGroup(ctx context.Context, g *globalFlags, gf groupFlags, f rotateFlags) error {
	ref, err := apiclient.ParseGroupRef(gf.group)
	if err != nil {
		return usagef("--group: %v", err)
	}
	c, host, err := a.hostClient(ctx, g)
	if err != nil {
		return err
	}
	j, err := a.groupJournal(host, f.ciVar)
	if err != nil {
		return err
	}
	if f.restart {
		if err := j.Restart(); err != nil {
			return reportedf(a, "Nothing was changed: %s.", explain.Text(err.Error()))
		}
	}
	o := workflow.GroupOptions{Subgroups: gf.subgroups, Variable: f.ciVar, Scope: f.scope,
		UpdateVariables: f.updateVars, KeepVariables: f.keepVars, Verify: f.verify}
	pctx, cancel := a.deadline(ctx, g)
	plan, err := workflow.PlanGroupRotation(pctx, c, ref, o, j)
	cancel()
	if err != nil {
		return reportedf(a, "%s Nothing was changed.", a.explain(err, "run the command again"))
	}
	a.rememberHost(host)
	a.printGroupPlan(plan, j)
	if gf.dryR {
		if g.jsonOut {
			return a.printGroupReport(g, plan)
		}
		fmt.Fprintln(a.stderr, "Dry run: nothing was changed.")
		return nil
	}
	if plan.Acting() == 0 {
		fmt.Fprintln(a.stderr, "Nothing to rotate.")
		if release, err := plan.Begin(j); err == nil {
			a.finishJournal(plan, j)
			release()
		}
		return a.printGroupReport(g, plan)
	}
	if !f.yes {
		ok, err := a.confirm(ctx, fmt.Sprintf("Rotate the keys of %s as planned above? Clients using the old DSNs stop reporting once each old key is deleted. [y/N] ", workflow.Projects(plan.Acting(), "")))
		switch {
		case err != nil:
			return fmt.Errorf("%w: nothing was changed", err)
		case !ok:
			fmt.Fprintln(a.stderr, "Nothing changed.")
			return nil
		}
	}
	release, err := plan.Begin(j)
	if err != nil {
		return reportedf(a, "Nothing was changed: %s.", explain.Text(err.Error()))
	}
	defer release()
	n, total := 0, plan.Acting()
	rctx, rcancel := a.deadline(ctx, g)
	defer rcancel()
	done := plan.Run(rctx, c, j, func(err error) string { return a.explain(err, "run the command again") }, func(p workflow.Project) workflow.Checks {
		return cliChecks(p.Ref)
	}, func(it workflow.GroupItem) {
		if r := it.Rotation; r.New != nil {
			a.keyCreated(host, it.Project.Ref, r.New.ID)
		}
		if it.Skip != "" && it.Result != workflow.ResultFailed {
			return
		}
		n++
		fmt.Fprintf(a.stderr, "[%d/%d] %s: %s. %s\n", n, total, explain.Text(it.Project.Name()), it.Result, explain.Text(groupWords(it)))
	})
	a.finishJournal(done, j)
	if err := a.printGroupReport(g, done); err != nil {
		return err
	}
	if failed := done.Failed(); failed > 0 {
		left := ""
		if j.Pending() > 0 {
			left = " Run the same command again to go on where it stopped: no project gets a second new key."
		}
		return reportedf(a, "%d of %s failed (see above).%s", failed, workflow.Projects(len(done.Items), ""), left)
	}
	return nil
}

// groupWords says how a project of a group rotation ended, with what to
// do where the command's flags decide.
func groupWords(it workflow.GroupItem) string {
	var groups *workflow.GroupVariablesError
	if errors.As(it.Err, &groups) {
		return it.Words + " Point them at the new DSN in the group's Settings > CI/CD > Variables and run the same command again, or run it with --keep-variables to delete the old key anyway (they then hold a deleted key's DSN)."
	}
	return it.Words
}

// finishJournal closes the journal once a run went through every project
// with none failed; a failure to write it is said, not fatal, and so are
// the projects outside this run that keep the rotation open.
func (a *app) finishJournal(p workflow.GroupPlan, j *workflow.Journal) {
	if err := p.Finish(j); err != nil {
		fmt.Fprintf(a.stderr, "errtrack: the journal could not be updated (%s): a run started again may plan projects this one rotated.\n", explain.Text(err.Error()))
		return
	}
	if p.Failed() > 0 {
		return
	}
	if out := p.Outside(j); len(out) > 0 {
		ids := make([]string, len(out))
		for i, e := range out {
			ids[i] = fmt.Sprint(e.ProjectID)
		}
		fmt.Fprintf(a.stderr, "The rotation is not finished: an earlier run set out to rotate %s this run does not reach (project IDs %s). Run it where they are (their group, --include-subgroups), or start a new rotation with --restart; until then the projects rotated are left alone.\n",
			workflow.Projects(len(out), ""), strings.Join(ids, ", "))
	}
}

// printGroupPlan shows, on stderr, what the run will do to each project.
func (a *app) printGroupPlan(p workflow.GroupPlan, j *workflow.Journal) {
	fmt.Fprintf(a.stderr, "Group %s: %d of %s to rotate.\n", explain.Text(p.Group.FullPath), p.Acting(), workflow.Projects(len(p.Items), ""))
	if n := p.Resuming(); n > 0 {
		fmt.Fprintf(a.stderr, "An earlier run left %s unfinished: this run goes on with %s.\n", workflow.Projects(n, ""), map[bool]string{true: "it", false: "them"}[n == 1])
	}
	if n := p.RotatedBefore(); n > 0 {
		fmt.Fprintf(a.stderr, "%s rotated by an earlier run that is not finished: this run leaves %s alone (the rotation is finished when a run ends with no project failed or left to do).\n", workflow.Projects(n, ""), map[bool]string{true: "it", false: "them"}[n == 1])
	}
	tw := tabwriter.NewWriter(a.stderr, 0, 0, 2, ' ', 0)
	for _, it := range p.Items {
		fmt.Fprintf(tw, "  %s\t%s\n", explain.Text(it.Project.Name()), explain.Text(it.Action()))
	}
	_ = tw.Flush()
}

// printGroupReport prints the report: a table, or --json one object per project.
func (a *app) printGroupReport(g *globalFlags, p workflow.GroupPlan) error {
	items := make([]groupItemJSON, len(p.Items))
	for i, it := range p.Items {
		x := groupItemJSON{Project: it.Project.Name(), ProjectID: it.Project.ID, Action: it.Action(), Result: it.Result, OldKeyID: it.OldID}
		if r := it.Rotation; r.New != nil {
			x.NewKeyID = r.New.ID
		} else if e := it.Resume; e != nil && e.Phase == workflow.PhaseDone {
			x.NewKeyID = e.NewID // rotated by an earlier run
		}
		for _, v := range it.Rotation.Variables {
			x.Variables = append(x.Variables, variableJSON{Key: v.Key, Scope: v.Scope, HeldOld: v.HoldsOld, Result: v.Result(), Masked: v.Masked, Protected: v.Protected})
		}
		if it.Result == workflow.ResultFailed {
			x.Error = groupWords(it)
			if x.Error == "" && it.Err != nil {
				x.Error = a.explain(it.Err, "run the command again")
			}
		}
		items[i] = x
	}
	if g.jsonOut {
		return writeJSON(a.stdout, items)
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PROJECT\tRESULT\tOLD KEY\tNEW KEY\tVARIABLES\tWHY")
	for i, x := range items {
		old, nk := "-", "-"
		if x.OldKeyID != 0 {
			old = fmt.Sprint(x.OldKeyID)
		}
		if x.NewKeyID != 0 {
			nk = fmt.Sprint(x.NewKeyID)
		}
		var vars []string
		for _, v := range x.Variables {
			vars = append(vars, v.Key+" "+v.Result)
		}
		result := x.Result
		if result == "" {
			result = "planned"
		}
		// A skipped project says why, as the plan did; a failed one what
		// went wrong.
		why := x.Error
		if it := p.Items[i]; it.Skip != "" && x.Error == "" {
			why = it.Skip
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", explain.Text(x.Project), result, old, nk, explain.Text(cmp.Or(strings.Join(vars, ", "), "-")), explain.Text(why))
	}
	return tw.Flush()
}

var errGroupAndProject = errors.New("--group acts on the group's projects: give --project or --group, not both")

// settingsGroup runs `settings enable|disable --group`: the plan, one
// question, the changes with progress, and the report.
func (a *app) settingsGroup(ctx context.Context, g *globalFlags, gf groupFlags, enable, yes bool) error {
	ref, err := apiclient.ParseGroupRef(gf.group)
	if err != nil {
		return usagef("--group: %v", err)
	}
	c, host, err := a.hostClient(ctx, g)
	if err != nil {
		return err
	}
	pctx, cancel := a.deadline(ctx, g)
	plan, err := workflow.PlanGroupSettings(pctx, c, ref, gf.subgroups, enable)
	cancel()
	if err != nil {
		return reportedf(a, "%s Nothing was changed.", a.explain(err, "run the command again"))
	}
	a.rememberHost(host)
	verb := map[bool]string{true: "enable", false: "disable"}[enable]
	fmt.Fprintf(a.stderr, "Group %s: %d of %s to %s.\n", explain.Text(plan.Group.FullPath), plan.Acting(), workflow.Projects(len(plan.Items), ""), verb)
	tw := tabwriter.NewWriter(a.stderr, 0, 0, 2, ' ', 0)
	for _, it := range plan.Items {
		what := it.Action
		if what == "" {
			what = "leave as it is: " + it.Skip
		}
		fmt.Fprintf(tw, "  %s\t%s\n", explain.Text(it.Project.Name()), explain.Text(what))
	}
	_ = tw.Flush()
	report := func(p workflow.SettingsPlan) error {
		type item struct {
			Project   string `json:"project"`
			ProjectID int64  `json:"project_id"`
			Action    string `json:"action"`
			Result    string `json:"result,omitempty"`
			Error     string `json:"error,omitempty"`
		}
		items := make([]item, len(p.Items))
		for i, it := range p.Items {
			items[i] = item{Project: it.Project.Name(), ProjectID: it.Project.ID, Action: it.Action, Result: it.Result}
			if it.Action == "" {
				items[i].Action = "none: " + it.Skip
			}
			if it.Err != nil {
				items[i].Error = a.explain(it.Err, "run the command again")
			}
		}
		if g.jsonOut {
			return writeJSON(a.stdout, items)
		}
		tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "PROJECT\tRESULT\tACTION")
		for _, x := range items {
			r := x.Result
			if r == "" {
				r = "planned"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\n", explain.Text(x.Project), r, explain.Text(x.Action))
		}
		return tw.Flush()
	}
	if gf.dryR {
		fmt.Fprintln(a.stderr, "Dry run: nothing was changed.")
		if g.jsonOut {
			return report(plan)
		}
		return nil
	}
	if plan.Acting() == 0 {
		fmt.Fprintln(a.stderr, "Nothing to change.")
		return report(plan)
	}
	if !yes {
		ok, err := a.confirm(ctx, fmt.Sprintf("%s error tracking in %s as planned above? [y/N] ", strings.ToUpper(verb[:1])+verb[1:], workflow.Projects(plan.Acting(), "")))
		switch {
		case err != nil:
			return fmt.Errorf("%w: nothing was changed", err)
		case !ok:
			fmt.Fprintln(a.stderr, "Nothing changed.")
			return nil
		}
	}
	n := 0
	rctx, rcancel := a.deadline(ctx, g)
	defer rcancel()
	done := plan.Run(rctx, c, func(it workflow.SettingsItem) {
		if it.Action == "" {
			return
		}
		n++
		msg := it.Action
		if it.Err != nil {
			msg = a.explain(it.Err, "run the command again")
		}
		fmt.Fprintf(a.stderr, "[%d/%d] %s: %s (%s)\n", n, plan.Acting(), explain.Text(it.Project.Name()), it.Result, explain.Text(msg))
	})
	if err := report(done); err != nil {
		return err
	}
	if f := done.Failed(); f > 0 {
		return reportedf(a, "%d of %s failed (see above); run the command again to retry them", f, workflow.Projects(len(done.Items), ""))
	}
	return nil
}
