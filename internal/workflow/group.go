package workflow

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/errtrack/errtrack/apiclient"
)

// A group rotation is the rotation plan run per project: in each project of
// the group whose CI/CD variable NAME holds the DSN of one of its keys,
// that key is rotated with the same steps and checks as a single rotation.
// Projects the user does not maintain, and projects without the variable,
// are skipped with the reason, never guessed at.

// GroupAPI is what a group-wide change needs.
type GroupAPI interface {
	RotationAPI
	GetGroup(ctx context.Context, g apiclient.GroupRef) (*apiclient.Group, *apiclient.Response, error)
	ListGroupProjects(ctx context.Context, g apiclient.GroupRef, subgroups bool) ([]apiclient.Project, *apiclient.Response, error)
}

// GroupOptions is what the user asked of a group rotation.
type GroupOptions struct {
	Subgroups bool
	// Variable and Scope name the CI/CD variable whose DSN is rotated.
	Variable, Scope string
	// UpdateVariables and KeepVariables answer, for every project, what to
	// do with other variables holding the old DSN; Verify sends a test
	// event with each new DSN.
	UpdateVariables, KeepVariables, Verify bool
}

// Result words of a project in a group change's report.
const (
	ResultChanged   = "changed"
	ResultUnchanged = "unchanged"
	ResultSkipped   = "skipped"
	ResultFailed    = "failed"
	// ResultOK: a check (a test event) that passed; it changed nothing.
	ResultOK = "ok"
)

// GroupItem is one project of a group change: what the plan will do, and
// what happened.
type GroupItem struct {
	Project Project
	// Skip says why the project is left alone; empty when it is acted on.
	Skip string
	// OldID is the key to rotate; Resume the key an interrupted run
	// created, which this run goes on with.
	OldID  int64
	Resume *JournalEntry
	// keyIDs are the project's keys the plan saw, kept in the journal
	// before the create; settle marks a project the journal holds whose
	// rotation the plan found finished (its old key gone).
	keyIDs []int64
	settle bool
	// seen is the project's journal entry the plan read (zero: none, or
	// planned), to tell whether another run changed it since.
	seen entrySeen
	// After the run.
	Result   string
	Rotation Rotation
	Err      error
	Words    string
}

// Action says what the plan does to the project.
func (it GroupItem) Action() string {
	switch {
	case it.Skip != "":
		return "skip: " + it.Skip
	case it.Resume != nil && it.Resume.NewID != 0:
		return fmt.Sprintf("go on with key %d, created by an earlier run that did not finish, to replace key %d", it.Resume.NewID, it.OldID)
	}
	return fmt.Sprintf("rotate key %d", it.OldID)
}

// GroupPlan is a group rotation before any write.
type GroupPlan struct {
	Group apiclient.Group
	Items []GroupItem
	opts  GroupOptions
}

// Acting counts the projects the plan changes.
func (p GroupPlan) Acting() int {
	n := 0
	for _, it := range p.Items {
		if it.Skip == "" {
			n++
		}
	}
	return n
}

// Resuming counts the projects the plan goes on with, where an earlier
// run left them.
func (p GroupPlan) Resuming() int {
	n := 0
	for _, it := range p.Items {
		if it.Resume != nil && it.Skip == "" && it.Resume.NewID != 0 {
			n++
		}
	}
	return n
}

// RotatedBefore counts the projects an earlier run of the rotation, not
// finished, already rotated: the plan leaves them alone.
func (p GroupPlan) RotatedBefore() int {
	n := 0
	for _, it := range p.Items {
		if it.Resume != nil && it.Resume.Phase == PhaseDone {
			n++
		}
	}
	return n
}

// Begin starts a run of the plan: it takes the journal's run lock (held
// until release) and records the projects the run sets out to rotate, so
// the journal stays open until each is rotated, whatever runs do it. A
// journal changed since the plan (another run meanwhile) is refused: plan
// again.
func (p GroupPlan) Begin(j *Journal) (release func(), err error) {
	release, err = j.lockRun()
	if err != nil || j == nil {
		return release, err
	}
	changed := false
	err = j.change(func(m map[int64]JournalEntry) {
		for _, it := range p.Items {
			e, ok := m[it.Project.ID]
			switch {
			case seenEntry(e) != it.seen:
				changed = true
			case it.Skip == "" && !ok:
				m[it.Project.ID] = JournalEntry{ProjectID: it.Project.ID, OldID: it.OldID, Phase: PhasePlanned}
			}
		}
	})
	if err == nil && changed {
		err = fmt.Errorf("%w: plan again", ErrJournalChanged)
	}
	if err != nil {
		release()
		return nil, err
	}
	return release, nil
}

// Outside are the journal's projects this plan does not reach: while any
// is left, the rotation is not finished.
func (p GroupPlan) Outside(j *Journal) []JournalEntry {
	ids := make(map[int64]bool, len(p.Items))
	for _, it := range p.Items {
		ids[it.Project.ID] = true
	}
	return j.Outside(ids)
}

// Finish ends a run that went through every project: the projects the
// plan found settled are recorded so, the ones it skipped leave the
// journal, and when no project failed and none is left planned or under
// way, the journal forgets the rotation (the next run rotates every
// project again). Until then a run started again leaves the rotated
// projects alone.
func (p GroupPlan) Finish(j *Journal) error {
	for _, it := range p.Items {
		e, ok := j.Entry(it.Project.ID)
		var err error
		switch {
		case it.settle && it.Resume != nil:
			e := *it.Resume
			e.Phase = PhaseDone
			err = j.Record(e)
		case ok && e.Phase == PhasePlanned && it.Skip != "" && it.Result != ResultFailed:
			err = j.Forget(it.Project.ID) // nothing to rotate there now
		}
		if err != nil {
			return err
		}
	}
	if p.Failed() > 0 {
		return nil
	}
	return j.closeRun()
}

// groupConcurrency is how many projects are read or changed at once: a
// few, so that a group is polite to the server (the client's pacer holds
// them all on a rate limit).
const groupConcurrency = 3

// PlanGroupRotation reads the group's projects and, in each one the user
// maintains, its keys and variables, and decides what to do; nothing is
// changed. A journal entry of an interrupted run makes the project go on
// with the key that run created.
func PlanGroupRotation(ctx context.Context, api GroupAPI, ref apiclient.GroupRef, o GroupOptions, j *Journal) (GroupPlan, error) {
	g, _, err := api.GetGroup(ctx, ref)
	if err != nil {
		return GroupPlan{}, err
	}
	projects, _, err := api.ListGroupProjects(ctx, ref, o.Subgroups)
	if err != nil {
		return GroupPlan{Group: *g}, err
	}
	plan := PlanRotationFor(ctx, api, projects, o, j)
	plan.Group = *g
	return plan, nil
}

// PlanRotationFor plans the rotation of the given projects (the console's
// marked ones, a group's): each the rotation plan, nothing changed yet.
func PlanRotationFor(ctx context.Context, api RotationAPI, projects []apiclient.Project, o GroupOptions, j *Journal) GroupPlan {
	plan := GroupPlan{Items: make([]GroupItem, len(projects)), opts: o}
	forEach(len(projects), func(i int) {
		p := projects[i]
		it := GroupItem{Project: Project{Ref: apiclient.ProjectID(p.ID), ID: p.ID, Path: p.PathWithNamespace}}
		defer func() { plan.Items[i] = it }()
		e, inJournal := j.Entry(p.ID)
		it.seen = seenEntry(e)
		if p.Permissions != nil && p.AccessLevel() < apiclient.MaintainerAccess { // unknown (the console's marks): the server decides
			it.Skip, it.Result = "you are not a Maintainer of this project", ResultSkipped
			return
		}
		if inJournal && resumed(ctx, api, &it, e) {
			return
		}
		k, ids, skip, err := heldKey(ctx, api, it.Project.Ref, o.Variable, o.Scope)
		it.keyIDs = ids
		switch {
		case err != nil:
			it.Skip, it.Result, it.Err = "could not be read", ResultFailed, err
		case skip != "":
			it.Skip, it.Result = skip, ResultSkipped
		default:
			it.OldID = k.ID
		}
	})
	return plan
}

// entrySeen is what of a journal entry tells one run's doing from another's.
type entrySeen struct {
	oldID, newID int64
	phase        string
}

// seenEntry is nothing for none or a planned entry.
func seenEntry(e JournalEntry) entrySeen {
	if e.Phase == PhasePlanned {
		return entrySeen{}
	}
	return entrySeen{e.OldID, e.NewID, e.Phase}
}

// resumed plans a project the journal holds from an earlier run; false
// when that run surely made no key and the project is planned afresh.
func resumed(ctx context.Context, api RotationAPI, it *GroupItem, e JournalEntry) bool {
	if e.Phase == PhasePlanned {
		return false // nothing was sent: planned as any other
	}
	it.Resume, it.OldID = &e, e.OldID
	if e.Phase == PhaseDone {
		done := fmt.Sprintf("key %d replaced key %d", e.NewID, e.OldID)
		if e.NewID == 0 {
			done = fmt.Sprintf("key %d is gone", e.OldID)
		}
		it.Skip, it.Result = "rotated by an earlier run that is not finished ("+done+"): left as it is until the rotation is finished or restarted", ResultUnchanged
		return true
	}
	keys, _, err := api.ListClientKeys(ctx, it.Project.Ref)
	if err != nil {
		it.Skip, it.Result, it.Err = "could not be read", ResultFailed, err
		return true
	}
	if e.Phase == PhaseCreated {
		// The key that run made may have been deleted by hand since: then
		// the project is planned afresh.
		if _, ok := FindKey(keys, e.NewID); ok {
			return true
		}
		it.Resume, it.OldID = nil, 0
		return false
	}
	// The create's answer was lost: which key it made, if any, is the
	// key that was not there before it.
	var made []int64
	old := false
	for _, k := range keys {
		switch {
		case k.ID == e.OldID:
			old = true
		case !slices.Contains(e.Before, k.ID):
			made = append(made, k.ID)
		}
	}
	switch {
	case !old:
		it.Skip, it.Result, it.settle = fmt.Sprintf("key %d is gone: rotated or deleted since an earlier run began to rotate it", e.OldID), ResultUnchanged, true
	case len(e.Before) == 0 || len(made) > 1:
		// Another create could make a second key: left to the user.
		it.Skip, it.Result = fmt.Sprintf("an earlier run may have created a key to replace key %d: check with 'errtrack keys list -p %d', then rotate by hand", e.OldID, it.Project.ID), ResultFailed
	case len(made) == 1:
		it.Resume = &JournalEntry{ProjectID: e.ProjectID, OldID: e.OldID, NewID: made[0], Phase: PhaseCreated}
	default:
		it.Resume, it.OldID = nil, 0 // the create was never made
		return false
	}
	return true
}

// heldKey finds the key whose DSN the project's variable (in scope, when
// given) holds; skip says why there is none to act on.
func heldKey(ctx context.Context, api RotationAPI, ref apiclient.ProjectRef, variable, scope string) (k apiclient.ClientKey, ids []int64, skip string, err error) {
	keys, vars, err := projectKeysAndVariables(ctx, api, ref)
	if err != nil {
		return k, nil, "", err
	}
	ids = make([]int64, len(keys))
	for i, k := range keys {
		ids[i] = k.ID
	}
	var held []apiclient.Variable
	for _, v := range vars {
		if v.Key == variable && (scope == "" || v.EnvironmentScope == scope) {
			held = append(held, v)
		}
	}
	switch {
	case len(held) == 0:
		return k, ids, "no CI/CD variable " + variable, nil
	case len(held) > 1:
		return k, ids, fmt.Sprintf("%d variables named %s in different environment scopes: choose one with --environment-scope", len(held), variable), nil
	case held[0].Value == nil:
		return k, ids, variable + " is hidden: its value cannot be read", nil
	}
	dsn := strings.TrimSpace(*held[0].Value)
	for _, k := range keys {
		if k.DSN == dsn {
			return k, ids, "", nil
		}
	}
	return k, ids, variable + " does not hold the DSN of one of the project's keys", nil
}

func projectKeysAndVariables(ctx context.Context, api RotationAPI, ref apiclient.ProjectRef) ([]apiclient.ClientKey, []apiclient.Variable, error) {
	var keys []apiclient.ClientKey
	var vars []apiclient.Variable
	kerr, verr := both(func() (err error) {
		keys, _, err = api.ListClientKeys(ctx, ref)
		return err
	}, func() (err error) {
		vars, _, err = api.ListVariables(ctx, ref)
		return err
	})
	return keys, vars, errors.Join(kerr, verr)
}

// forEach runs f for 0..n-1, groupConcurrency at a time.
func forEach(n int, f func(i int)) {
	sem := make(chan struct{}, groupConcurrency)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			f(i)
		}()
	}
	wg.Wait()
}

// Run rotates every planned project, a few at a time, with the rotation
// plan: the journal is written before each create and after it, so a run
// interrupted and started again never makes a project a second key.
// progress is called as each project ends.
func (p GroupPlan) Run(ctx context.Context, api GroupAPI, j *Journal, explain Explainer, checks func(Project) Checks, progress func(GroupItem)) GroupPlan {
	p.Items = slices.Clone(p.Items) // the caller's plan stays as it was
	done := make(chan GroupItem)
	go func() {
		forEach(len(p.Items), func(i int) {
			it := p.Items[i]
			if it.Skip == "" {
				it = p.rotate(ctx, api, it, j, explain, checks(it.Project))
				p.Items[i] = it
			}
			done <- it
		})
		close(done)
	}()
	for it := range done {
		if progress != nil {
			progress(it)
		}
	}
	return p
}

func (p GroupPlan) rotate(ctx context.Context, api GroupAPI, it GroupItem, j *Journal, explain Explainer, c Checks) GroupItem {
	o := RotationOptions{OldID: it.OldID, Variable: p.opts.Variable, Scope: p.opts.Scope,
		UpdateVariables: p.opts.UpdateVariables, KeepVariables: p.opts.KeepVariables, Verify: p.opts.Verify, Confirmed: true}
	if it.Resume != nil && it.Resume.NewID != 0 {
		o.Created = &apiclient.ClientKey{ID: it.Resume.NewID}
		// The key found after a lost answer is kept as this run's.
		if err := j.Record(JournalEntry{ProjectID: it.Project.ID, OldID: it.OldID, NewID: it.Resume.NewID, Phase: PhaseCreated}); err != nil {
			it.Result, it.Err = ResultFailed, fmt.Errorf("the journal could not be written, so nothing was changed: %w", err)
			it.Words = it.Err.Error() + "."
			return it
		}
	}
	r := NewRotation(it.Project.Ref, o)
	fail := func(err error) GroupItem {
		it.Rotation, it.Err, it.Result = r, err, ResultFailed
		it.Words = r.Failure(explain, c)
		if unsafe := (*UnsafeDeleteError)(nil); errors.As(err, &unsafe) && unsafe.groups {
			it.Err = &GroupVariablesError{Uses: r.GroupUsesText()}
		}
		return it
	}
	for s := r.Next(); s != StepDone; s = r.Next() {
		switch s {
		case StepChooseVariables:
			// Other variables hold the old DSN and nobody said what to do
			// with them: the old key stays, as a single rotation with --yes.
			r = r.Stop()
			it.Rotation, it.Result = r, ResultFailed
			it.Err = &OtherVariablesError{Holders: r.HoldsOldDSN()}
			it.Words = it.Err.Error() + ". " + r.State(c)
			return it
		case StepCreate:
			if err := j.Record(JournalEntry{ProjectID: it.Project.ID, OldID: it.OldID, Phase: PhaseCreating, Before: it.keyIDs}); err != nil {
				return fail(fmt.Errorf("the journal could not be written, so nothing was created: %w", err))
			}
		}
		var err error
		if r, err = r.Run(ctx, api, s); err != nil {
			var gone *NoSuchKeyError
			if s == StepPlan && errors.As(err, &gone) && it.Resume != nil && it.Resume.NewID != 0 {
				return p.finishedBefore(ctx, api, it, j)
			}
			if s == StepCreate && !r.CreateUnknown {
				// Surely not created: nothing to resume, still to rotate.
				_ = j.Record(JournalEntry{ProjectID: it.Project.ID, OldID: it.OldID, Phase: PhasePlanned})
			}
			return fail(err)
		}
		if s == StepCreate {
			if err := j.Record(JournalEntry{ProjectID: it.Project.ID, OldID: it.OldID, NewID: r.New.ID, Phase: PhaseCreated}); err != nil {
				r = r.Stop()
				return fail(fmt.Errorf("the journal could not be written after key %d was created, so the rotation stops here: %w", r.New.ID, err))
			}
		}
	}
	_ = j.Record(JournalEntry{ProjectID: it.Project.ID, OldID: it.OldID, NewID: r.New.ID, Phase: PhaseDone})
	it.Rotation, it.Result = r, ResultChanged
	it.Words = r.State(c)
	return it
}

// finishedBefore settles a resumed project whose old key is gone: the
// earlier run, or someone since, finished it; the key that run made is
// named when the variable does not hold it.
func (p GroupPlan) finishedBefore(ctx context.Context, api GroupAPI, it GroupItem, j *Journal) GroupItem {
	keys, vars, err := projectKeysAndVariables(ctx, api, it.Project.Ref)
	if err != nil {
		it.Result, it.Err = ResultFailed, err
		it.Words = fmt.Sprintf("Key %d is gone; the project's keys and variables could not be read to tell whether key %d, made by an earlier run, is in use.", it.OldID, it.Resume.NewID)
		return it
	}
	_ = j.Record(JournalEntry{ProjectID: it.Project.ID, OldID: it.OldID, NewID: it.Resume.NewID, Phase: PhaseDone})
	it.Result = ResultUnchanged
	k, ok := FindKey(keys, it.Resume.NewID)
	if ok {
		for _, v := range vars {
			if v.Key == p.opts.Variable && v.Value != nil && *v.Value == k.DSN {
				it.Words = fmt.Sprintf("Already rotated by an earlier run: key %d replaced key %d, and %s holds its DSN.", k.ID, it.OldID, v.Key)
				return it
			}
		}
		it.Words = fmt.Sprintf("Key %d is gone (rotated or deleted since an earlier run began); key %d, which that run made, is still there and %s does not hold its DSN: delete it if nothing uses it.", it.OldID, k.ID, p.opts.Variable)
		return it
	}
	it.Words = fmt.Sprintf("Key %d is gone (rotated or deleted since an earlier run began): nothing to do.", it.OldID)
	return it
}

// OtherVariablesError stops a project's rotation before the old key goes:
// other variables than the one rotated hold its DSN, and nobody said what
// they get. Each front end words what to do about it.
type OtherVariablesError struct {
	// Holders names them: "DEPLOY_DSN holds" or "A and B hold".
	Holders string
}

func (e *OtherVariablesError) Error() string {
	return e.Holders + " the old DSN too: pass --update-variables or --keep-variables"
}

// GroupVariablesError stops a project's rotation before the old key goes:
// variables of its groups, which a rotation does not change, hold the old
// DSN. Each front end words what to do about it.
type GroupVariablesError struct {
	// Uses names them: "CI/CD variable SENTRY_DSN (environment
	// production) of group web".
	Uses string
}

func (e *GroupVariablesError) Error() string {
	return "the old DSN is held by the " + e.Uses
}

// Failed counts the projects that failed.
func (p GroupPlan) Failed() int {
	n := 0
	for _, it := range p.Items {
		if it.Result == ResultFailed {
			n++
		}
	}
	return n
}
