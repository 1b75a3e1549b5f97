package change

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/rotation"
)

// A run whose deletes lose their answer leaves each rotation open in the
// ledger; the run started again goes on with each key made (no create),
// and until a run ends with none failed the rotated projects are left
// alone. Then the group rotation is finished and the next run rotates
// every project again.
func TestGroupRotationResumes(t *testing.T) {
	srv, c := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	l, _ := testLedger(t)
	f := &faultyGroup{Faulty: &flowtest.Faulty{Client: c}, failDelete: true}
	first := runPlan(t, ctx, plan(t, f, flowtest.DemoGroup(t), true, rotateSentryDSN(l)), f, nil)
	if first.Failed() != 2 || len(l.OpenRotations(7)) != 1 {
		t.Fatalf("failed %d, open %v: %+v", first.Failed(), l.OpenRotations(7), first.Items)
	}
	p := plan(t, c, flowtest.DemoGroup(t), true, rotateSentryDSN(l))
	if it := byPath(p)["demo/mobile/ios"]; !strings.Contains(it.Action, "go on with key") || it.rotation().Old.ID != 901 {
		t.Fatalf("%+v", it)
	}
	release, err := p.Begin("")
	if err != nil {
		t.Fatal(err)
	}
	second := p.Run(ctx, runEnv(c), nil)
	release()
	if second.Failed() != 0 || srv.KeyCount(7) != 1 || srv.KeyCount(1) != 2 {
		t.Fatalf("keys: project 7 %v, project 1 %v: %+v", srv.Keys(7), srv.Keys(1), second.Items)
	}
	// Before the run is finished, a run started again rotates neither.
	again := plan(t, c, flowtest.DemoGroup(t), true, rotateSentryDSN(l))
	if again.Acting() != 0 || !strings.Contains(byPath(again)["demo/mobile/ios"].Skip, "rotated by an earlier run") {
		t.Fatalf("%+v", again.Items)
	}
	if err := second.Finish(); err != nil {
		t.Fatal(err)
	}
	if next := plan(t, c, flowtest.DemoGroup(t), true, rotateSentryDSN(l)); next.Acting() != 2 {
		t.Fatalf("a finished rotation's projects are not rotated again: %+v", next.Items)
	}
}

// Finish after a run that failed somewhere keeps the group rotation open:
// the projects it rotated are not rotated again by the next run.
func TestFailedRunKeepsGroupRotationOpen(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	l, _ := testLedger(t)
	f := &faultyGroup{Faulty: &flowtest.Faulty{Client: c, Update: flowtest.Lost}}
	done := runPlan(t, context.Background(), plan(t, f, flowtest.DemoGroup(t), true, rotateSentryDSN(l)), f, nil)
	if done.Failed() == 0 {
		t.Fatalf("no project failed: %+v", done.Items)
	}
	if open := l.Store().Records(func(r ledger.Record) bool { return r.Kind == ledger.KindCampaign && r.IsOpen() }); len(open) != 1 {
		t.Fatalf("the group rotation was closed after a failed run: %+v", open)
	}
}

// Interrupted after some projects were rotated and before the others
// started, the report tells not reached from failed, and the run started
// again rotates only the others: no project gets two new keys.
func TestGroupRotationInterruptedMidGroup(t *testing.T) {
	srv, c, creates, _ := flowtest.MockCounting(t, mockserver.Options{ScaleGroup: 6})
	l, _ := testLedger(t)
	ctx, cancel := context.WithCancel(context.Background())
	ended := 0
	first := runPlan(t, ctx, plan(t, c, flowtest.Fleet(), false, keep(l)), c, func(e Event) {
		if e.Done {
			if ended++; ended == 3 {
				cancel() // Ctrl+C
			}
		}
	})
	if first.Failed() != 0 || first.Count(ResultNotReached) == 0 || !first.Interrupted() {
		t.Fatalf("an interruption is not failure: %+v", first.Items)
	}
	// A project never reached has its create's record closed: its create
	// was never sent, so nothing is left open for it.
	for _, it := range first.Items {
		if it.Result == ResultNotReached {
			if open := l.OpenRotations(it.Project.ID); len(open) != 0 {
				t.Fatalf("%s, never reached, has open rotations: %+v", it.Project.Name(), open)
			}
		}
	}
	p := plan(t, c, flowtest.Fleet(), false, keep(l))
	if p.Acting() > 3 {
		t.Fatalf("the run started again does not know the projects rotated: %+v", p.Items)
	}
	done := runPlan(t, context.Background(), p, c, nil)
	if done.Failed() != 0 {
		t.Fatalf("%+v", done.Items)
	}
	for id := int64(2001); id <= 2006; id++ {
		if keys := srv.Keys(id); len(keys) != 1 || keys[0].ID == 200000+id-2000 {
			t.Fatalf("project %d keys %+v", id, keys)
		}
		// Gone on with or rotated afresh, every rotation is finished:
		// none is left open (a record of a create never sent, or the
		// earlier run's, once gone on with).
		if open := l.OpenRotations(id); len(open) != 0 {
			t.Fatalf("project %d keeps open rotations: %+v", id, open)
		}
	}
	// Counted at the server: a create cancelled in flight may still be
	// made there (the next run goes on with it).
	if n := creates.Load(); n != 6 {
		t.Fatalf("%d keys created for 6 projects", n)
	}
}

// A create whose answer was lost is never sent again: the plan finds the
// key it made (the one above every key the project had) and goes on with
// it; none there, the create is closed as failed and planned afresh;
// several, which one is not known, and the project is left to the user.
func TestGroupRotationNeverCreatesTwice(t *testing.T) {
	srv, c := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	l, _ := testLedger(t)
	f := &faultyGroup{Faulty: &flowtest.Faulty{Client: c, Create: func(k *apiclient.ClientKey) (*apiclient.ClientKey, error) { return nil, flowtest.Lost }}}
	first := runPlan(t, ctx, plan(t, f, flowtest.DemoGroup(t), true, rotateSentryDSN(l)), f, nil)
	if it := byPath(first)["demo/mobile/ios"]; it.Result != ResultUnderWay {
		t.Fatalf("a lost create is not under way: %+v", it)
	}
	made := slices.DeleteFunc(flowtest.KeyIDs(srv.Keys(7)), func(id int64) bool { return id == 901 })
	if len(made) != 1 {
		t.Fatalf("ios keys %v", srv.Keys(7))
	}
	p := plan(t, c, flowtest.DemoGroup(t), true, rotateSentryDSN(l))
	if it := byPath(p)["demo/mobile/ios"]; !strings.Contains(it.Action, "go on with key") || it.rotation().Rotation.New.ID != made[0] {
		t.Fatalf("%+v", it)
	}
	done := runPlan(t, ctx, p, c, nil)
	if ids := flowtest.KeyIDs(srv.Keys(7)); done.Failed() != 0 || !slices.Equal(ids, made) {
		t.Fatalf("ios keys %v, want only %v: %+v", ids, made, done.Items)
	}
}

// The same with the keys the project shows after a lost create: none, the
// rotation is closed (it made nothing) and the project planned afresh;
// two, the plan cannot tell which and fails the project, making nothing.
func TestLostCreateResolvedFromTheKeys(t *testing.T) {
	srv, c := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	l, _ := testLedger(t)
	rec := ledger.Record{Kind: ledger.KindRotation, ID: "r-lost", Host: flowtest.TestHost, ProjectID: 7, OldKeyID: 901,
		Named: &ledger.Variable{Key: "SENTRY_DSN", Scope: "*"}, Phase: ledger.PhaseCreating, Before: []string{"901"}, BeforeMax: 901, BeforeComplete: true, Started: time.Now()}
	if err := l.Put(rec, true); err != nil {
		t.Fatal(err)
	}
	p := plan(t, c, flowtest.DemoGroup(t), true, rotateSentryDSN(l))
	if it := byPath(p)["demo/mobile/ios"]; it.Action != "rotate key 901" {
		t.Fatalf("no key appeared, yet: %+v", it)
	}
	if r, _ := l.Store().Get("r-lost"); r.Phase != ledger.PhaseFailed {
		t.Fatalf("the create that made nothing is %s", r.Phase)
	}
	rec.ID = "r-lost-2"
	_ = l.Put(rec, true)
	for range 2 {
		if _, _, err := c.CreateClientKey(ctx, apiclient.ProjectID(7)); err != nil {
			t.Fatal(err)
		}
	}
	before := srv.KeyCount(7)
	p = plan(t, c, flowtest.DemoGroup(t), true, rotateSentryDSN(l))
	it := byPath(p)["demo/mobile/ios"]
	var unknown *rotation.UnknownCreateError
	if it.Result != ResultFailed || !errors.As(it.Err, &unknown) || len(unknown.Candidates) != 2 {
		t.Fatalf("%+v", it)
	}
	runPlan(t, ctx, p, c, nil)
	if srv.KeyCount(7) != before {
		t.Fatal("a key was made while which key the lost create made is not known")
	}
}

// One run of a group rotation at a time, whatever process runs it: a
// second run started meanwhile is refused before it changes anything, and
// a plan made before another run changed its projects is refused at its
// start (plan again).
func TestGroupRotationOneRunAtATime(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{ScaleGroup: 4}, mockserver.TokenMaintainer)
	ctx := context.Background()
	la, other := testLedger(t)
	lb := other()
	a := plan(t, c, flowtest.Fleet(), false, keep(la))
	b := plan(t, c, flowtest.Fleet(), false, keep(lb))
	release, err := a.Begin("fleet")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Begin("fleet"); !errors.Is(err, ErrRunUnderWay) {
		t.Fatalf("a second run at once: %v", err)
	}
	a.Run(ctx, runEnv(c), nil).Finish()
	release()
	if _, err := b.Begin("fleet"); !errors.Is(err, ErrLedgerChanged) {
		t.Fatalf("a plan older than another run's rotations of its projects: %v", err)
	}
	// Another scope is another group rotation: never mixed, never blocked.
	lc := other()
	scoped := plan(t, c, flowtest.Fleet(), false, RotateChange{Variable: "SENTRY_DSN", Scope: "production", Ledger: lc})
	release, err = plan(t, c, flowtest.Fleet(), false, keep(la)).Begin("fleet")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	if r2, err := scoped.Begin("fleet"); err != nil {
		t.Fatalf("another scope's run is blocked: %v", err)
	} else {
		r2()
	}
}

// A run that covers some of an unfinished group rotation's projects (the
// console's marks, a subgroup) does not close it: the projects the first
// run rotated are still left alone by the next run of the whole group.
func TestGroupRotationPartialRunKeepsItOpen(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{ScaleGroup: 6}, mockserver.TokenMaintainer)
	ctx := context.Background()
	l, _ := testLedger(t)
	creates := map[int64]int{}
	var mu sync.Mutex
	count := func(e Event) {
		mu.Lock()
		defer mu.Unlock()
		if r := e.Item.rotation().Rotation; e.Done && r != nil && r.New != nil && !r.GoingOn() {
			creates[e.Item.Project.ID]++
		}
	}
	projects := sortedFleet(t, c)
	whole := plan(t, c, flowtest.Fleet(), false, keep(l))
	release, err := whole.Begin("fleet")
	if err != nil {
		t.Fatal(err)
	}
	// The whole group's run rotates the first two projects, then stops.
	first, _ := PlanProjects(ctx, c, projects[:2], keep(l))
	first.campaign = whole.campaign
	first.Run(ctx, runEnv(c), count)
	release()
	// The console marks only the last project and rotates it: the group
	// rotation stays open, the others still to do.
	part, _ := PlanProjects(ctx, c, projects[5:], keep(l))
	runPlan(t, ctx, part, c, count)
	if out := part.Outside(); len(out) != 3 {
		t.Fatalf("the partial run leaves %v outside, want the 3 not rotated", out)
	}
	again := plan(t, c, flowtest.Fleet(), false, keep(l))
	if again.Acting() != 3 {
		t.Fatalf("%+v", again.Items)
	}
	done := runPlan(t, ctx, again, c, count)
	if done.Failed() != 0 {
		t.Fatalf("%+v", done.Items)
	}
	if open := l.Store().Records(func(r ledger.Record) bool { return r.Kind == ledger.KindCampaign && r.IsOpen() }); len(open) != 0 {
		t.Fatalf("the group rotation is still open: %+v", open)
	}
	for _, p := range projects {
		if creates[p.ID] != 1 {
			t.Fatalf("%s got %d new keys: %v", p.PathWithNamespace, creates[p.ID], creates)
		}
	}
}

// A group run interrupted after a project's create leaves the rotation
// open; the console's R on that project's old key then asks to go on with
// the key the group run made, and going on makes none.
func TestConsoleGoesOnWithAGroupRunsKey(t *testing.T) {
	_, c, creates, _ := flowtest.MockCounting(t, mockserver.Options{ScaleGroup: 1})
	ctx := context.Background()
	l, _ := testLedger(t)
	f := &faultyGroup{Faulty: &flowtest.Faulty{Client: c}, refuseUpdate: true}
	runPlan(t, ctx, plan(t, f, flowtest.Fleet(), false, keep(l)), f, nil)
	if creates.Load() != 1 {
		t.Fatal(creates.Load())
	}
	console := l.WithFrontEnd(rotation.FrontEndConsole)
	r, err := rotation.NewRotation(apiclient.ProjectID(2001), rotation.RotationOptions{OldID: 200001, Ledger: console}).Run(ctx, c, rotation.StepPlan)
	if err != nil || r.Next() != rotation.StepResume || r.Earlier.Campaign == "" {
		t.Fatalf("%v: next %d, earlier %+v", err, r.Next(), r.Earlier)
	}
	r, err = r.GoOn().Advance(ctx, c, nil)
	if err != nil || creates.Load() != 1 || r.New.ID != r.Earlier.NewKeyID {
		t.Fatalf("%v: %d creates", err, creates.Load())
	}
}
