package change

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/fanout"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/wording"
)

// A change to many projects (a group's, or the console's marked ones) has
// one shape whatever it does (rotate the keys a variable holds, enable or
// disable error tracking, send test events): a plan that only reads and
// says what it will do in each project and why it leaves others alone; a
// run, a few projects at a time, reporting each as it starts and ends; a
// report that tells changed, failed, under way and not reached apart; and
// for rotations, a campaign in the ledger that a run started again goes on
// with. Both front ends run this, never a copy of it.

// ChangeAPI is what every kind of group change needs.
type ChangeAPI interface {
	rotation.RotationAPI
	GetGroup(ctx context.Context, g apiclient.GroupRef) (*apiclient.Group, *apiclient.Response, error)
	projectscope.ScopeAPI
	GetSettings(ctx context.Context, p apiclient.ProjectRef) (*apiclient.Settings, *apiclient.Response, error)
	CreateSettings(ctx context.Context, p apiclient.ProjectRef, active, integrated bool) (*apiclient.Settings, *apiclient.Response, error)
	UpdateSettings(ctx context.Context, p apiclient.ProjectRef, active bool, integrated *bool) (*apiclient.Settings, *apiclient.Response, error)
}

// Result words of a project in a group change's report.
const (
	ResultPlanned   = "planned"
	ResultRunning   = "running"
	ResultChanged   = "changed"
	ResultUnchanged = "unchanged"
	ResultSkipped   = "skipped"
	ResultFailed    = "failed"
	// ResultOK: a check (a test event) that passed; it changed nothing.
	ResultOK = "ok"
	// ResultUnderWay: interrupted in the middle: a key was made and the
	// ledger keeps the rotation open; running again goes on with it.
	ResultUnderWay = "under way"
	// ResultNotReached: interrupted before it began: nothing changed.
	ResultNotReached = "not reached"
)

// Kind is one kind of group change: what it plans and does in a project.
type Kind interface {
	// Words name the change for people.
	Words() ChangeWords
	// Plan decides what to do in one project (reads only).
	Plan(ctx context.Context, env *PlanEnv, p apiclient.Project) Item
	// Run does it.
	Run(ctx context.Context, env *RunEnv, it Item) Item
	// Holds is what an item holds while it runs (holds.go).
	Holds(it Item) []Hold
}

// crossChecker is a kind whose projects' plans can clash with one
// another (two migrations to one Sentry project): it stops those once
// every project is planned.
type crossChecker interface {
	CrossCheck(items []Item)
}

// prePlanner is a kind that reads, once before its projects are planned,
// what every project's plan needs (a migration's Sentry organisation and
// team).
type prePlanner interface {
	PrePlan(ctx context.Context) Kind
}

// ChangeWords name a change: "Rotating the keys SENTRY_DSN holds", "Rotate
// the keys SENTRY_DSN holds", "Rotating", and in a plan's count "to
// rotate"; Before is said before the user says yes; Resume, for a change a
// run started again goes on with, how.
type ChangeWords struct {
	Doing, Ask, Progress, Plan, Before, Resume string
}

// Item is one project of a group change: what the plan will do, then what
// happened.
type Item struct {
	Project projectscope.Project
	// Action says what the plan does; Skip why the project is left alone
	// (then Action is empty).
	Action, Skip string
	Result       string
	// Words say how it ended; Err is why it failed.
	Words string
	Err   error

	// Detail is what the kind knows of the project (its kind's result);
	// nil for a project left alone before its kind planned it.
	Detail KindResult
}

// Acts reports an item the plan changes (or sends an event to).
func (it Item) Acts() bool { return it.Skip == "" }

// Plan is a group change before and after its run.
type Plan struct {
	Kind Kind
	// Group is the group planned, zero for the console's marked projects.
	Group apiclient.Group
	Items []Item
	// campaign is a rotation's group rotation in the ledger.
	campaign *campaignPlan
}

// Acting counts the projects the plan changes.
func (p Plan) Acting() int {
	n := 0
	for _, it := range p.Items {
		if it.Acts() {
			n++
		}
	}
	return n
}

// Count counts the projects with result r.
func (p Plan) Count(r string) int {
	n := 0
	for _, it := range p.Items {
		if it.Result == r {
			n++
		}
	}
	return n
}

// GoingOn counts the projects the plan goes on with, where an earlier run
// left them; DoneBefore those an earlier run of it rotated, left alone.
func (p Plan) GoingOn() (goingOn, doneBefore int) {
	for _, it := range p.Items {
		var goesOn, before bool
		if r, ok := it.Detail.(resumer); ok {
			goesOn, before = r.Resumes()
		}
		if goesOn && it.Acts() {
			goingOn++
		}
		if before {
			doneBefore++
		}
	}
	return goingOn, doneBefore
}

// resumer is a kind's result that can go on with an earlier run's work
// (goesOn) or find it done by one (doneBefore).
type resumer interface {
	Resumes() (goesOn, doneBefore bool)
}

// Failed counts the projects that failed, in the plan or the run.
func (p Plan) Failed() int { return p.Count(ResultFailed) }

// Interrupted reports a run that did not reach every project.
func (p Plan) Interrupted() bool { return p.Count(ResultNotReached)+p.Count(ResultUnderWay) > 0 }

// PlanEnv is what a plan shares across its projects: the groups' variables
// read once per group.
type PlanEnv struct {
	API      ChangeAPI
	Groups   projectscope.GroupVariablesReader
	ledger   *rotation.Rotations
	campaign *campaignPlan
}

// PlanGroup reads the group and its projects, and plans kind in each one;
// nothing is changed. A listing that fails is an error, never an empty
// plan.
func PlanGroup(ctx context.Context, api ChangeAPI, ref apiclient.GroupRef, subgroups bool, kind Kind) (Plan, error) {
	var g *apiclient.Group
	var projects []apiclient.Project
	var perr error
	u, named := kind.(needsUser)
	// The group, its projects and (for the ledger) the user, at once.
	gerr := fanout.Together(func() (err error) {
		g, _, err = api.GetGroup(ctx, ref)
		return err
	}, func() {
		projects, perr = projectscope.GroupProjects(ctx, api, ref, subgroups)
	}, func() {
		if named {
			kind = u.withUser(ctx, api)
		}
	})
	if err := errors.Join(gerr, perr); err != nil {
		return Plan{Kind: kind}, err
	}
	p, err := PlanProjects(ctx, api, projects, kind)
	p.Group = *g
	return p, err
}

// needsUser is a kind whose ledger names the user, read with the plan.
type needsUser interface {
	withUser(ctx context.Context, api ChangeAPI) Kind
}

func (k RotateChange) withUser(ctx context.Context, api ChangeAPI) Kind {
	if !k.Ledger.HasUser() {
		k.Ledger = k.Ledger.WithUser(rotation.CurrentUser(ctx, api))
	}
	return k
}

// PlanProjects plans kind in the given projects (a group's, the console's
// marked ones), a few at a time; a project listed twice is planned once.
func PlanProjects(ctx context.Context, api ChangeAPI, projects []apiclient.Project, kind Kind) (Plan, error) {
	projects = uniqueProjects(projects)
	if pp, ok := kind.(prePlanner); ok {
		kind = pp.PrePlan(ctx)
	}
	env := &PlanEnv{API: api}
	plan := Plan{Kind: kind, Items: make([]Item, len(projects))}
	if c, ok := kind.(campaigner); ok {
		var err error
		if plan.campaign, err = c.openCampaign(); err != nil {
			return plan, err
		}
		env.ledger, env.campaign = plan.campaign.ledger, plan.campaign
	}
	fanout.ForEach(len(projects), func(i int) {
		p := projects[i]
		if skip := projectscope.SkipReason(p); skip != "" {
			plan.Items[i] = Item{Project: ProjectOf(p), Skip: skip, Result: ResultSkipped}
			return
		}
		plan.Items[i] = kind.Plan(ctx, env, p)
	})
	if x, ok := kind.(crossChecker); ok {
		x.CrossCheck(plan.Items)
	}
	if plan.campaign != nil {
		plan.campaign.planned(plan.Items)
	}
	return plan, nil
}

// ProjectOf is a project as a listing gave it.
func ProjectOf(p apiclient.Project) projectscope.Project {
	return projectscope.Project{Ref: apiclient.ProjectID(p.ID), ID: p.ID, Path: p.PathWithNamespace}
}

// uniqueProjects keeps the first of projects listed more than once (pages
// of a listing that moved while read).
func uniqueProjects(projects []apiclient.Project) []apiclient.Project {
	seen := make(map[int64]bool, len(projects))
	out := projects[:0:0]
	for _, p := range projects {
		if !seen[p.ID] {
			seen[p.ID] = true
			out = append(out, p)
		}
	}
	return out
}

// RunEnv is what a run needs from its front end: the API, how to word an
// error, and how the user checks what a lost answer left.
type RunEnv struct {
	API     ChangeAPI
	Explain wording.Explainer
	Checks  func(projectscope.Project) rotation.Checks
	// Stopped, when set, reports that the user stopped the run: the
	// projects not begun are not reached, those under way finish (a
	// cancelled context interrupts them instead).
	Stopped func() bool

	campaign *campaignPlan
	// groups reads each ancestor group's variables once in the run, for
	// what a project's delete reads again right before it goes.
	groups *projectscope.GroupVariablesReader
}

// Event reports a project of a run starting (Done false) or ending.
type Event struct {
	Index int
	Item  Item
	Done  bool
}

// preparer is a kind that writes ahead, in one batch, what its projects
// must have on disk before they change (a rotation's record before its
// create): one sync for many projects.
type preparer interface {
	prepare(env *RunEnv, items []Item) []Item
	// notReached undoes what prepare wrote for a project never begun.
	notReached(env *RunEnv, it Item)
}

// prepareAhead is how many projects a preparer writes ahead at once.
const prepareAhead = 8 * fanout.GroupConcurrency

// Run carries out the plan, a few projects at a time; progress, when not
// nil, hears of each project as it starts and ends (from the run's
// goroutines, one at a time). A run interrupted (ctx done) leaves the
// projects it did not begin "not reached". A rotation's run must be begun
// (Begin) first.
func (p Plan) Run(ctx context.Context, env RunEnv, progress func(Event)) Plan {
	p.Items = slices.Clone(p.Items) // the caller's plan stays as it was
	env.campaign = p.campaign
	env.groups = new(projectscope.GroupVariablesReader)
	var mu sync.Mutex
	tell := func(e Event) {
		if progress != nil {
			mu.Lock()
			progress(e)
			mu.Unlock()
		}
	}
	prep, prepares := p.Kind.(preparer)
	// itemsMu guards p.Items: the prepare step reads and writes the
	// coming items while the workers write theirs.
	var itemsMu sync.Mutex
	set := func(i int, it Item) {
		itemsMu.Lock()
		p.Items[i] = it
		itemsMu.Unlock()
	}
	prepared := 0 // items before this index are prepared
	ahead := func(i int) {
		itemsMu.Lock()
		defer itemsMu.Unlock()
		if i < prepared {
			return
		}
		end := min(len(p.Items), i+prepareAhead)
		done := prep.prepare(&env, slices.Clone(p.Items[i:end]))
		copy(p.Items[i:end], done)
		prepared = end
	}
	stopped := func() bool { return ctx.Err() != nil || (env.Stopped != nil && env.Stopped()) }
	fanout.ForEach(len(p.Items), func(i int) {
		if prepares && !stopped() {
			ahead(i)
		}
		itemsMu.Lock()
		it := p.Items[i]
		itemsMu.Unlock()
		if !it.Acts() {
			return
		}
		if stopped() {
			if prepares {
				prep.notReached(&env, it)
			}
			it.Result, it.Words = ResultNotReached, "not reached: the run was interrupted before it began here; nothing was changed"
			set(i, it)
			tell(Event{Index: i, Item: it, Done: true})
			return
		}
		it.Result = ResultRunning
		tell(Event{Index: i, Item: it})
		it = p.Kind.Run(ctx, &env, it)
		set(i, it)
		tell(Event{Index: i, Item: it, Done: true})
	})
	return p
}

// KindResult is what one kind of change knows of a project, planned and
// then done: a RotationResult, SettingsResult, VerifyResult or
// MigrationResult. The front ends switch on its type, never on which
// fields happen to be set.
type KindResult interface{ KindResult() }
