package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/wording"
)

// Every group command (keys rotate --group, settings enable|disable
// --group, keys verify --group) is this one driver around the workflow's
// one plan shape: the plan on stderr, one question, a line per project as
// it ends, the report (a table, or --json), and an exit code that says
// whether every project came through.

// groupRun is one group command's run of the driver.
type groupRun struct {
	g    *globalFlags
	gf   groupFlags
	yes  bool
	kind change.Kind
	c    *apiclient.Client
	host string
	noun string // what nothing was: "changed", "sent"
	// plan, when set, plans instead of the group's plan (a single
	// project's migration).
	plan func(ctx context.Context) (change.Plan, error)
}

// runGroup plans, asks, runs and reports.
func (a *app) runGroup(ctx context.Context, r groupRun) error {
	if r.plan == nil {
		ref, err := apiclient.ParseGroupRef(r.gf.group)
		if err != nil {
			return usagef("--group: %v", err)
		}
		r.plan = func(ctx context.Context) (change.Plan, error) {
			return change.PlanGroup(ctx, r.c, ref, r.gf.subgroups, r.kind)
		}
	}
	words := r.kind.Words()
	pctx, cancel := a.deadline(ctx, r.g)
	plan, err := r.plan(pctx)
	cancel()
	if err != nil {
		return reportedf(a, "%s Nothing was %s.", a.explain(err, "run the command again"), r.noun)
	}
	a.rememberHost(r.host)
	a.printGroupPlan(plan)
	planFailed := plan.Failed()
	switch {
	case r.gf.dryR:
		fmt.Fprintf(a.stderr, "Dry run: nothing was %s.\n", r.noun)
		if r.g.jsonOut {
			if err := a.printGroupReport(r.g, plan); err != nil {
				return err
			}
		}
		return a.planFailures(planFailed, plan)
	case plan.Acting() == 0:
		fmt.Fprintf(a.stderr, "Nothing to do: nothing was %s.\n", r.noun)
		if release, err := plan.Begin(plan.Group.FullPath); err == nil {
			a.finishCampaign(plan)
			release()
		}
		if err := a.printGroupReport(r.g, plan); err != nil {
			return err
		}
		return a.planFailures(planFailed, plan)
	}
	if !r.yes {
		q := fmt.Sprintf("%s in %s as planned above?", words.Ask, wording.Projects(plan.Acting(), ""))
		if words.Before != "" {
			q = words.Before + "\n" + q
		}
		ok, err := a.confirm(ctx, explain.Text(q)+" [y/N] ")
		switch {
		case err != nil:
			return fmt.Errorf("%w: nothing was %s", err, r.noun)
		case !ok:
			fmt.Fprintf(a.stderr, "Nothing was %s.\n", r.noun)
			return nil
		}
	}
	release, err := plan.Begin(plan.Group.FullPath)
	if err != nil {
		return reportedf(a, "Nothing was %s: %s.", r.noun, explain.Text(err.Error()))
	}
	defer release()
	n, total := 0, plan.Acting()
	rctx, rcancel := a.deadline(ctx, r.g)
	defer rcancel()
	env := change.RunEnv{API: r.c, Explain: func(err error) string { return a.explain(err, "run the command again") },
		Checks: func(p projectscope.Project) rotation.Checks { return cliChecks(p.Ref) }}
	// The keys made are remembered in one write at the end of the run,
	// not one per key (which made a run of many projects quadratic).
	created, flushCreated := a.keysSeenBatch(false)
	defer flushCreated()
	done := plan.Run(rctx, env, func(e change.Event) {
		if !e.Done {
			return
		}
		if rot, ok := e.Item.Detail.(change.RotationResult); ok && rot.Rotation != nil && rot.Rotation.New != nil && created != nil {
			created.Created(r.host, e.Item.Project.Ref.ID, e.Item.Project.Ref.Path, rot.Rotation.New.ID, a.now())
		}
		n++
		fmt.Fprintf(a.stderr, "[%d/%d] %s: %s. %s\n", n, total, explain.Text(e.Item.Project.Name()), e.Item.Result, explain.Text(a.groupWords(e.Item)))
	})
	a.finishCampaign(done)
	if err := a.printGroupReport(r.g, done); err != nil {
		return err
	}
	return a.runOutcome(done, words)
}

// planFailures fails a plan that could not read some projects (or found
// a stop there): exit 1, never "nothing to do" with success.
func (a *app) planFailures(n int, p change.Plan) error {
	if n == 0 {
		return nil
	}
	return reportedf(a, "%s could not be planned (see above): fix what each says and run the command again.", wording.Projects(n, ""))
}

// runOutcome sums up a run and fails it unless every project came through.
func (a *app) runOutcome(p change.Plan, words change.ChangeWords) error {
	failed, under, notReached := p.Failed(), p.Count(change.ResultUnderWay), p.Count(change.ResultNotReached)
	if failed+under+notReached == 0 {
		return nil
	}
	var parts []string
	if failed > 0 {
		parts = append(parts, fmt.Sprintf("%d of %s failed", failed, wording.Projects(len(p.Items), "")))
	}
	if under > 0 {
		parts = append(parts, fmt.Sprintf("%d under way (a key was made; running again goes on with it)", under))
	}
	if notReached > 0 {
		parts = append(parts, fmt.Sprintf("%d not reached (nothing changed there)", notReached))
	}
	again := ""
	if words.Resume != "" {
		again = " Run the same command again to go on where it stopped: no project gets a second new key."
	} else if under+notReached > 0 {
		again = " Run the same command again for the projects not reached."
	}
	lead := ""
	if p.Interrupted() {
		lead = words.Doing + " was interrupted: "
	}
	return reportedf(a, "%s%s (see above).%s", lead, strings.Join(parts, "; "), again)
}

// finishCampaign closes a rotation's campaign when the run finished it; a
// failure to write is said, not fatal, and so are the projects outside
// this run that keep it open.
func (a *app) finishCampaign(p change.Plan) {
	if err := p.Finish(); err != nil {
		fmt.Fprintf(a.stderr, "errtrack: the rotation ledger could not be updated (%s): a run started again may plan again the projects this one rotated.\n", explain.Text(err.Error()))
		return
	}
	// Named whatever else happened: a failed run says it too.
	if w := p.OutsideWords("run it where they are (their group, --include-subgroups)", "start a new rotation with --restart"); w != "" {
		fmt.Fprintln(a.stderr, w)
	}
}

// printGroupPlan shows, on stderr, what the run will do in each project.
func (a *app) printGroupPlan(p change.Plan) {
	w := p.Kind.Words()
	where := "Group " + explain.Text(p.Group.FullPath)
	if p.Group.FullPath == "" {
		where = "Projects"
	}
	fmt.Fprintf(a.stderr, "%s: %d of %s %s.\n", where, p.Acting(), wording.Projects(len(p.Items), ""), w.Plan)
	them := func(n int) string { return map[bool]string{true: "it", false: "them"}[n == 1] }
	goingOn, doneBefore := p.GoingOn()
	if goingOn > 0 {
		fmt.Fprintf(a.stderr, "An earlier run left %s unfinished: this run goes on with %s, making no second key.\n", wording.Projects(goingOn, ""), them(goingOn))
	}
	if doneBefore > 0 {
		fmt.Fprintf(a.stderr, "%s rotated by an earlier run of this group rotation, which is not finished: this run leaves %s alone (it is finished when a run ends with no project failed or left to do).\n", wording.Projects(doneBefore, ""), them(doneBefore))
	}
	tw := tabwriter.NewWriter(a.stderr, 0, 0, 2, ' ', 0)
	for _, it := range p.Items {
		what := it.Action
		if !it.Acts() {
			what = "skip: " + a.groupWords(it)
		}
		fmt.Fprintf(tw, "  %s\t%s\n", explain.Text(planName(p.Group, it.Project)), explain.Text(what))
	}
	_ = tw.Flush()
}
