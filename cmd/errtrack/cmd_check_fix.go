package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/check"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
)

// check --fix mends what errtrack can of the findings, as one plan shown
// and asked once: keys past their age rotated through the group layer
// (the variable that holds each repointed, a test event, resumable through
// the ledger), Sentry keys given the policy's rate limit (their loader
// settings kept), unused keys deleted when nothing holds them.

// fixFlags are check's --fix flags.
type fixFlags struct {
	fix, dryRun, yes bool
	// deleteUnread: --delete-with-unread-groups, as keys rotate takes it.
	deleteUnread bool
}

// keyFix is one key's change outside a rotation: a rate limit set, or an
// unused key deleted.
type keyFix struct {
	result  check.Result
	finding check.Finding
	// deletion: the delete planned (its variables read again); nil for a
	// rate limit.
	deletion *rotation.Deletion
	store    keystore.KeyStore
	stop     string
	// afterRotation: the plan rotates the key, so the rate limit goes to
	// the key that replaces it, once made (the old one is deleted).
	afterRotation bool
}

func (f keyFix) words() string {
	if f.deletion != nil {
		return "delete key " + keystore.KeyName(f.finding.ClientKey()) + " (no CI/CD variable holds it)"
	}
	if f.afterRotation {
		return "set rate limit " + f.finding.RateLimitWant() + " on the key that replaces key " + keystore.KeyName(f.finding.ClientKey()) + ", after its rotation"
	}
	return "set rate limit " + f.finding.RateLimitWant() + " on key " + keystore.KeyName(f.finding.ClientKey())
}

// rotatedKey names a project's key a rotation replaces.
func rotatedKey(projectID int64, old apiclient.ClientKey) string {
	return fmt.Sprint(projectID) + " " + keystore.KeyRef(old)
}

// fixPlan is everything --fix will do.
type fixPlan struct {
	rotations []change.Plan
	keys      []keyFix
	left      int // findings errtrack cannot mend
}

func (p fixPlan) acting() int {
	n := 0
	for _, r := range p.rotations {
		n += r.Acting()
	}
	for _, k := range p.keys {
		if k.stop == "" {
			n++
		}
	}
	return n
}

// planFix reads what the fixes need (a rotation's plan, a delete's
// variables again), changing nothing.
func (a *app) planFix(ctx context.Context, g *globalFlags, c *apiclient.Client, led *rotation.Rotations, results []check.Result, deleteUnread bool) (fixPlan, error) {
	var p fixPlan
	byVar := map[string][]apiclient.Project{}
	for _, r := range results {
		path := r.Audit.Project.Path
		proj := apiclient.Project{ID: r.Audit.Project.ID, PathWithNamespace: path}
		added := map[string]bool{}
		// A rotation an earlier run left open goes on, whatever its old
		// key's finding says now (its variable may hold the new key).
		replacing := map[int64]bool{}
		for _, rec := range led.OpenRotations(r.Audit.Project.ID) {
			if rec.Named != nil && rec.Named.Group == "" {
				replacing[rec.OldKeyID] = true
				if !added[rec.Named.Key] {
					added[rec.Named.Key] = true
					byVar[rec.Named.Key] = append(byVar[rec.Named.Key], proj)
				}
			}
		}
		for _, f := range r.Findings {
			switch {
			case f.Rule == check.RuleKeyMaxAge && f.ClientKey().ID != 0 && replacing[f.ClientKey().ID]:
				// its open rotation replaces it
			case !f.Mendable:
				p.left++
			case f.Rule == check.RuleKeyMaxAge:
				v := f.Holder().Variable
				if !added[v] {
					added[v] = true
					byVar[v] = append(byVar[v], proj)
				}
			case f.Rule == check.RuleRateLimit || f.Rule == check.RuleUnusedKeys:
				k := keyFix{result: r, finding: f}
				var err error
				if r.Backend == keystore.BackendSentry {
					k.store, err = a.sentryResolver(g)(ctx, *r.Audit.Settings.APIURL)
				}
				if err == nil && f.Rule == check.RuleUnusedKeys {
					var d rotation.Deletion
					d, err = rotation.PlanDeletionIn(ctx, c, r.Audit.Project.Ref, k.store, keyArgOf(f.ClientKey()), false)
					k.deletion = &d
					if w := d.Warning(); err == nil && w != "" {
						k.stop = w // held, or its use unknown: never deleted
					}
				}
				if err != nil {
					k.stop = a.explain(err, "run errtrack check --fix again")
				}
				p.keys = append(p.keys, k)
			}
		}
	}
	vars := make([]string, 0, len(byVar))
	for v := range byVar {
		vars = append(vars, v)
	}
	slices.Sort(vars)
	for _, v := range vars {
		kind := change.RotateChange{Variable: v, ScopeHow: chooseScope, UpdateVariables: true, Verify: true, DeleteWithUnreadGroups: deleteUnread, Ledger: led, Resolve: a.sentryResolver(g)}
		plan, err := change.PlanProjects(ctx, c, byVar[v], kind)
		if err != nil {
			return p, err
		}
		p.rotations = append(p.rotations, plan)
	}
	// A key the plan rotates is deleted: its rate limit goes to the new key.
	rotated := map[string]bool{}
	for _, r := range p.rotations {
		for _, it := range r.Items {
			if r, ok := it.Detail.(change.RotationResult); ok && it.Acts() && r.Rotation != nil {
				rotated[rotatedKey(it.Project.Ref.ID, r.Rotation.Old)] = true
			}
		}
	}
	for i, k := range p.keys {
		if k.deletion == nil && rotated[rotatedKey(k.result.Audit.Project.ID, k.finding.ClientKey())] {
			p.keys[i].afterRotation = true
		}
	}
	return p, nil
}

func keyArgOf(k apiclient.ClientKey) string {
	if k.ID != 0 {
		return fmt.Sprint(k.ID)
	}
	return k.PublicKey
}

// printFixPlan shows the plan on stderr.
func (a *app) printFixPlan(p fixPlan) {
	fmt.Fprintf(a.stderr, "Fix: %s errtrack can make; %s it cannot mend (their fix is in the report).\n", plural(p.acting(), "change"), plural(p.left, "finding"))
	for _, r := range p.rotations {
		a.printGroupPlan(r)
	}
	if len(p.keys) > 0 {
		fmt.Fprintln(a.stderr, "Keys:")
	}
	for _, k := range p.keys {
		what := k.words()
		if k.stop != "" {
			what = "skip: " + what + ": " + k.stop
		}
		fmt.Fprintf(a.stderr, "  %s  %s\n", explain.Text(k.result.Project), explain.Text(what))
	}
}

// runFix plans, asks once, and runs the fixes; the exit status says
// whether every fix went through.
func (a *app) runFix(ctx context.Context, g *globalFlags, c *apiclient.Client, host, group string, results []check.Result, ff fixFlags) error {
	led, closeLedger, err := a.rotations(host, rotation.FrontEndGroupCommand)
	if err != nil {
		return reportedf(a, "%s Nothing was changed.", a.explain(err, "run the command again"))
	}
	defer closeLedger()
	pctx, cancel := a.deadline(ctx, g)
	plan, err := a.planFix(pctx, g, c, led, results, ff.deleteUnread)
	cancel()
	if err != nil {
		return a.checkFailed(err, "planning the fixes")
	}
	a.printFixPlan(plan)
	switch {
	case ff.dryRun:
		fmt.Fprintln(a.stderr, "Dry run: nothing was changed.")
		return findingsLeft
	case plan.acting() == 0:
		fmt.Fprintln(a.stderr, "Nothing errtrack can fix: nothing was changed.")
		return findingsLeft
	case !ff.yes:
		ok, err := a.confirm(ctx, fmt.Sprintf("Make the %s planned above? [y/N] ", plural(plan.acting(), "change")))
		switch {
		case err != nil:
			return fmt.Errorf("%w: nothing was changed", err)
		case !ok:
			fmt.Fprintln(a.stderr, "Nothing was changed.")
			return findingsLeft
		}
	}
	var failures []error
	made := map[string]apiclient.ClientKey{} // the new keys, by the key each replaces
	for _, r := range plan.rotations {
		if r.Acting() == 0 {
			continue
		}
		if err := a.runRotationPlan(ctx, g, c, host, group, r, made); err != nil {
			failures = append(failures, err)
		}
	}
	var lastSentry time.Time
	for _, k := range plan.keys {
		if k.stop != "" || ctx.Err() != nil {
			continue
		}
		if k.store != nil {
			paceSentry(ctx, &lastSentry)
		}
		if err := a.runKeyFix(ctx, g, c, led, k, made); err != nil {
			failures = append(failures, err)
		}
	}
	if len(failures) > 0 {
		return reportedf(a, "%d of the fixes failed (see above): run errtrack check --fix again to go on; no key is made twice.", len(failures))
	}
	if plan.left > 0 {
		return exitStatus{code: exitFindings, err: reportedf(a, "Fixed what errtrack can; %s it cannot mend remain (their fix is in the report above).", plural(plan.left, "finding"))}
	}
	fmt.Fprintln(a.stderr, "Fixed. Run errtrack check again to confirm.")
	return nil
}

// findingsLeft: a fix that changed nothing leaves check's findings.
var findingsLeft = exitStatus{code: exitFindings, err: errors.New("findings left")}

// runRotationPlan runs one variable's rotations as keys rotate --group
// does: under the ledger's claim, each new key remembered as created (and
// put in made, by the key it replaces).
func (a *app) runRotationPlan(ctx context.Context, g *globalFlags, c *apiclient.Client, host, group string, plan change.Plan, made map[string]apiclient.ClientKey) error {
	release, err := plan.Begin(group)
	if err != nil {
		return reportedf(a, "%s: %s.", plan.Kind.Words().Doing, explain.Text(err.Error()))
	}
	defer release()
	rctx, cancel := a.deadline(ctx, g)
	defer cancel()
	env := change.RunEnv{API: c, Explain: func(err error) string { return a.explain(err, "run errtrack check --fix again") },
		Checks: func(p projectscope.Project) rotation.Checks { return cliChecks(p.Ref) }}
	created, flush := a.keysSeenBatch(false)
	defer flush()
	done := plan.Run(rctx, env, func(e change.Event) {
		if !e.Done {
			return
		}
		if r, ok := e.Item.Detail.(change.RotationResult); ok && r.Rotation != nil && r.Rotation.New != nil {
			rot := r.Rotation
			made[rotatedKey(e.Item.Project.Ref.ID, rot.Old)] = *rot.New
			if created != nil {
				created.Created(host, e.Item.Project.Ref.ID, e.Item.Project.Ref.Path, rot.New.ID, a.now())
			}
		}
		fmt.Fprintf(a.stderr, "%s: %s. %s\n", explain.Text(e.Item.Project.Name()), e.Item.Result, explain.Text(a.groupWords(e.Item)))
	})
	a.finishCampaign(done)
	return a.runOutcome(done, plan.Kind.Words())
}

// runKeyFix sets a rate limit (on the key that replaced a rotated one) or
// deletes an unused key.
func (a *app) runKeyFix(ctx context.Context, g *globalFlags, c *apiclient.Client, led *rotation.Rotations, k keyFix, made map[string]apiclient.ClientKey) error {
	rctx, cancel := a.deadline(ctx, g)
	defer cancel()
	name := explain.Text(k.result.Project) + ": " + explain.Text(k.words())
	target := k.finding.ClientKey()
	if k.afterRotation {
		nk, ok := made[rotatedKey(k.result.Audit.Project.ID, target)]
		if !ok {
			fmt.Fprintf(a.stderr, "%s: not done: the rotation made no new key. Run errtrack check --fix again.\n", name)
			return errors.New("no new key to set the rate limit on")
		}
		target = nk
		name = explain.Text(k.result.Project) + ": set rate limit " + explain.Text(k.finding.RateLimitWant()+" on key "+keystore.KeyName(nk))
	}
	var err error
	if k.deletion != nil {
		_, err = k.deletion.Run(rctx, c, led)
	} else if u, ok := k.store.(keystore.Updater); !ok {
		err = errors.New("the project's keys are GitLab's integrated keys, which have no rate limit")
	} else {
		var rl *sentry.RateLimit
		if rl, _, err = keystore.ParseRateLimit(k.finding.RateLimitWant()); err == nil {
			_, err = u.UpdateKey(rctx, target.PublicKey, sentry.UpdateKeyOptions{RateLimit: rl})
		}
	}
	if err != nil {
		fmt.Fprintf(a.stderr, "%s: failed: %s\n", name, a.explain(err, "run errtrack check --fix again"))
		return err
	}
	fmt.Fprintf(a.stderr, "%s: done.\n", name)
	return nil
}

// sentryKeyGap spaces the key changes sent to a Sentry: its key endpoints
// allow 40 requests a second, and a change is two (the key read, so its
// loader settings are sent back, then the update).
const sentryKeyGap = 2 * time.Second / 40

// paceSentry waits until sentryKeyGap has passed since *last, then marks
// now; a cancelled ctx ends the wait.
func paceSentry(ctx context.Context, last *time.Time) {
	if wait := time.Until(last.Add(sentryKeyGap)); !last.IsZero() && wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
	}
	*last = time.Now()
}
