package change

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
)

// testLedger is a fresh ledger in its own state directory; more opens the
// same directory again, as another process would.
func testLedger(t *testing.T) (*rotation.Rotations, func() *rotation.Rotations) {
	t.Helper()
	dir := t.TempDir()
	open := func() *rotation.Rotations {
		store, err := ledger.OpenLedger(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		return rotation.NewRotations(store, flowtest.TestHost, rotation.FrontEndGroupCommand).WithUser("tester")
	}
	return open(), open
}

func byPath(p Plan) map[string]Item {
	m := map[string]Item{}
	for _, it := range p.Items {
		m[it.Project.Path] = it
	}
	return m
}

func checksFor(projectscope.Project) rotation.Checks { return testChecks }

func runEnv(api ChangeAPI) RunEnv {
	return RunEnv{API: api, Explain: flowtest.ExplainPlain, Checks: checksFor}
}

func plan(t *testing.T, api ChangeAPI, ref apiclient.GroupRef, sub bool, kind Kind) Plan {
	t.Helper()
	p, err := PlanGroup(context.Background(), api, ref, sub, kind)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runPlan begins, runs and finishes a plan, as both front ends do.
func runPlan(t *testing.T, ctx context.Context, p Plan, api ChangeAPI, progress func(Event)) Plan {
	t.Helper()
	release, err := p.Begin("")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	done := p.Run(ctx, runEnv(api), progress)
	if err := done.Finish(); err != nil {
		t.Fatal(err)
	}
	return done
}

func rotateSentryDSN(l *rotation.Rotations) RotateChange {
	return RotateChange{Variable: "SENTRY_DSN", Ledger: l}
}

func keep(l *rotation.Rotations) RotateChange {
	return RotateChange{Variable: "SENTRY_DSN", KeepVariables: true, Ledger: l}
}

// The group rotation is the rotation plan per project: it rotates the key
// SENTRY_DSN holds where it holds one, and skips, with the reason, the
// projects without it and those the user does not maintain.
func TestGroupRotation(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	l, _ := testLedger(t)
	// The user is no Owner of the groups, whose variables answer 403: the
	// user said to rotate anyway.
	k := rotateSentryDSN(l)
	k.DeleteWithUnreadGroups = true
	p := plan(t, c, flowtest.DemoGroup(t), true, k)
	items := byPath(p)
	if p.Acting() != 2 || items["demo/web-shop"].rotation().Old.ID != 1 || items["demo/mobile/ios"].rotation().Old.ID != 901 {
		t.Fatalf("%+v", p.Items)
	}
	if s := items["demo/mobile/kiosk"].Skip; !strings.Contains(s, "not a Maintainer") {
		t.Fatal(s)
	}
	if s := items["demo/mobile/android"].Skip; !strings.Contains(s, "no CI/CD variable SENTRY_DSN") {
		t.Fatal(s)
	}
	if srv.KeyCount(1) != 2 || srv.KeyCount(7) != 1 {
		t.Fatal("the plan changed something")
	}
	done := runPlan(t, context.Background(), p, c, nil)
	if done.Failed() != 0 || done.Count(ResultChanged) != 2 {
		t.Fatalf("%+v", done.Items)
	}
	for _, id := range []int64{1, 7} {
		keys := srv.Keys(id)
		if v := flowtest.VariableValue(srv, id, "SENTRY_DSN", "*"); !strings.Contains(v, keys[len(keys)-1].PublicKey) {
			t.Fatalf("project %d: SENTRY_DSN %q does not hold the new key", id, v)
		}
	}
	if srv.KeyCount(7) != 1 || srv.Keys(7)[0].ID == 901 {
		t.Fatalf("project 7 keys %v", srv.Keys(7))
	}
	// The ledger holds both rotations, finished, by user and front end,
	// and the group rotation finished with them.
	recs := l.Store().Records(func(r ledger.Record) bool { return r.Kind == ledger.KindRotation })
	if len(recs) != 2 || recs[0].Phase != ledger.PhaseDone || recs[0].User != "tester" || recs[0].FrontEnd != rotation.FrontEndGroupCommand || recs[0].Campaign == "" {
		t.Fatalf("%+v", recs)
	}
	if c := l.Store().Records(func(r ledger.Record) bool { return r.Kind == ledger.KindCampaign }); len(c) != 1 || c[0].Phase != ledger.CampaignFinished {
		t.Fatalf("%+v", c)
	}
}

type faultyGroup struct {
	*flowtest.Faulty
	failDelete bool
	// listTwice lists each project twice (pages that moved while read).
	listTwice bool
	// failKeys answers every key listing with a server error.
	failKeys bool
	// refuseUpdate refuses every variable update (403), changing nothing.
	refuseUpdate bool
}

func (f *faultyGroup) UpdateVariableValue(ctx context.Context, p apiclient.ProjectRef, key, scope, value string) (*apiclient.Variable, *apiclient.Response, error) {
	if f.refuseUpdate {
		return nil, nil, &apiclient.APIError{StatusCode: 403, Kind: apiclient.ErrForbidden, Message: "403 Forbidden"}
	}
	return f.Faulty.UpdateVariableValue(ctx, p, key, scope, value)
}

func (f *faultyGroup) DeleteClientKey(ctx context.Context, p apiclient.ProjectRef, id int64) (*apiclient.ClientKey, *apiclient.Response, error) {
	if f.failDelete {
		return nil, nil, flowtest.Lost
	}
	return f.Faulty.DeleteClientKey(ctx, p, id)
}

func (f *faultyGroup) ListGroupProjectsWith(ctx context.Context, g apiclient.GroupRef, o apiclient.GroupProjectsOptions) ([]apiclient.Project, *apiclient.Response, error) {
	ps, resp, err := f.Faulty.ListGroupProjectsWith(ctx, g, o)
	if f.listTwice {
		ps = append(ps, ps...)
	}
	return ps, resp, err
}

func (f *faultyGroup) ListClientKeys(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.ClientKey, *apiclient.Response, error) {
	if f.failKeys {
		return nil, nil, flowtest.Lost
	}
	return f.Faulty.ListClientKeys(ctx, p)
}

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

// The mock's fleet group: each project is rotated, and its variable then
// holds its new key. The first app's old DSN is also in the group's
// FLEET_SENTRY_DSN, which errtrack does not change: the plan shows that
// stop and makes no key there, unless --keep-variables.
func TestFleetGroupRotation(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{ScaleGroup: 5}, mockserver.TokenMaintainer)
	l, _ := testLedger(t)
	p := plan(t, c, flowtest.Fleet(), false, rotateSentryDSN(l))
	var groups *rotation.GroupVariablesError
	if first := byPath(p)["fleet/app-001"]; first.Acts() || first.Result != ResultFailed || !errors.As(first.Err, &groups) || !strings.Contains(first.Skip, "FLEET_SENTRY_DSN") {
		t.Fatalf("the plan hides a stop it can see: %+v", first)
	}
	runPlan(t, context.Background(), p, c, nil)
	if srv.KeyCount(2001) != 1 || srv.Keys(2001)[0].ID != 200001 {
		t.Fatalf("a key was made where the plan stopped: %v", srv.Keys(2001))
	}
	srv, c = flowtest.Mock(t, mockserver.Options{ScaleGroup: 5}, mockserver.TokenMaintainer)
	l, _ = testLedger(t)
	done := runPlan(t, context.Background(), plan(t, c, flowtest.Fleet(), false, keep(l)), c, nil)
	for _, it := range done.Items {
		keys := srv.Keys(it.Project.ID)
		if it.Result != ResultChanged || len(keys) != 1 || keys[0].ID == it.rotation().Old.ID {
			t.Fatalf("%s: %s %+v", it.Project.Path, it.Words, keys)
		}
		if v := flowtest.VariableValue(srv, it.Project.ID, "SENTRY_DSN", ""); !strings.Contains(v, keys[0].PublicKey) {
			t.Fatalf("%s: SENTRY_DSN does not hold key %d", it.Project.Path, keys[0].ID)
		}
	}
}

// Under a GitLab-like rate limit (20 requests a minute) a group rotation of
// five projects completes with no failure: the host's pace waits out each
// reset. Time is virtual: the client's sleep moves the mock server's clock.
func TestGroupRotationUnderRateLimit(t *testing.T) {
	var mu sync.Mutex
	clock := time.Now()
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	sleep := func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		clock = clock.Add(d)
		mu.Unlock()
		return ctx.Err()
	}
	srv, err := mockserver.New(mockserver.Options{ScaleGroup: 5, RateLimit: 20, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c, err := apiclient.New(ts.URL, mockserver.TokenMaintainer, apiclienttest.WithClock(now, sleep))
	if err != nil {
		t.Fatal(err)
	}
	l, _ := testLedger(t)
	done := runPlan(t, context.Background(), plan(t, c, flowtest.Fleet(), false, keep(l)), c, nil)
	if done.Failed() != 0 {
		for _, it := range done.Items {
			t.Logf("%s: %s %s", it.Project.Path, it.Result, it.Words)
		}
		t.Fatal("a project failed under the rate limit")
	}
	if srv.KeyCount(2003) != 1 {
		t.Fatalf("keys %v", srv.Keys(2003))
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

func sortedFleet(t *testing.T, c *apiclient.Client) []apiclient.Project {
	projects, _, err := c.ListGroupProjects(context.Background(), flowtest.Fleet(), false)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(projects, func(a, b apiclient.Project) int { return strings.Compare(a.PathWithNamespace, b.PathWithNamespace) })
	return projects
}

// A project listed twice (pages that moved while read) is one project:
// one key made.
func TestProjectListedTwiceRotatedOnce(t *testing.T) {
	srv, c, creates, _ := flowtest.MockCounting(t, mockserver.Options{ScaleGroup: 2})
	l, _ := testLedger(t)
	f := &faultyGroup{Faulty: &flowtest.Faulty{Client: c}, listTwice: true}
	p := plan(t, f, flowtest.Fleet(), false, keep(l))
	if len(p.Items) != 2 || p.Acting() != 2 {
		t.Fatalf("%d items for 2 projects listed twice", len(p.Items))
	}
	runPlan(t, context.Background(), p, f, nil)
	if creates.Load() != 2 || srv.KeyCount(2001) != 1 {
		t.Fatalf("%d creates for 2 projects", creates.Load())
	}
}

// Projects whose keys could not be read fail the plan: never "nothing to
// rotate".
func TestUnreadableProjectsFailThePlan(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{ScaleGroup: 3}, mockserver.TokenMaintainer)
	l, _ := testLedger(t)
	f := &faultyGroup{Faulty: &flowtest.Faulty{Client: c}, failKeys: true}
	p := plan(t, f, flowtest.Fleet(), false, keep(l))
	if p.Acting() != 0 || p.Failed() != 3 {
		t.Fatalf("acting %d, failed %d: %+v", p.Acting(), p.Failed(), p.Items)
	}
}

// Another variable holding the old DSN, with nobody saying what it gets,
// is a stop the plan shows: no key is made there.
func TestPlanShowsOtherVariablesStop(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{ScaleGroup: 2}, mockserver.TokenMaintainer)
	ctx := context.Background()
	old := apiKey(t, c, 2002)
	if _, _, err := c.CreateVariable(ctx, apiclient.ProjectID(2002), apiclient.NewVariable{Key: "DEPLOY_DSN", Value: old.DSN, Raw: true}); err != nil {
		t.Fatal(err)
	}
	l, _ := testLedger(t)
	p := plan(t, c, flowtest.Fleet(), false, RotateChange{Variable: "SENTRY_DSN", Ledger: l})
	it := byPath(p)["fleet/app-002"]
	var others *OtherVariablesError
	if it.Acts() || !errors.As(it.Err, &others) || !strings.Contains(it.Skip, "DEPLOY_DSN") {
		t.Fatalf("%+v", it)
	}
	runPlan(t, ctx, p, c, nil)
	if srv.KeyCount(2002) != 1 {
		t.Fatal("a key was made where the plan showed a stop")
	}
}

// A variable repointed between the plan and the run is left as it is, and
// the planned old key is not deleted.
func TestVariableChangedSincePlanLeftAlone(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{ScaleGroup: 1}, mockserver.TokenMaintainer)
	ctx := context.Background()
	l, _ := testLedger(t)
	p := plan(t, c, flowtest.Fleet(), false, keep(l))
	elsewhere := "https://abc@sentry.example/1"
	if _, _, err := c.UpdateVariableValue(ctx, apiclient.ProjectID(2001), "SENTRY_DSN", "", elsewhere); err != nil {
		t.Fatal(err)
	}
	done := runPlan(t, ctx, p, c, nil)
	it := done.Items[0]
	var moved *rotation.VariableMovedError
	if it.Result != ResultFailed || !errors.As(it.Err, &moved) {
		t.Fatalf("%+v", it)
	}
	if v := flowtest.VariableValue(srv, 2001, "SENTRY_DSN", ""); v != elsewhere {
		t.Fatalf("the repointed variable was overwritten: %q", v)
	}
	if !slices.Contains(flowtest.KeyIDs(srv.Keys(2001)), 200001) {
		t.Fatal("the planned old key was deleted")
	}
}

// Scopes never mix. A production rotation cut off after its create does
// not give its key to a staging rotation of the same old key; the staging
// rotation makes its own, and deletes nothing while SENTRY_DSN
// (production) still holds the old DSN, even with --keep-variables.
func TestScopesNeverMix(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{ScaleGroup: 1}, mockserver.TokenMaintainer)
	ctx := context.Background()
	old := apiKey(t, c, 2001)
	pid := apiclient.ProjectID(2001)
	// SENTRY_DSN in two scopes, both on the old key.
	for _, scope := range []string{"production", "staging"} {
		if _, _, err := c.CreateVariable(ctx, pid, apiclient.NewVariable{Key: "SENTRY_DSN", Value: old.DSN, EnvironmentScope: scope, Raw: true}); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := c.Raw(ctx, http.MethodDelete, "projects/2001/variables/SENTRY_DSN", map[string][]string{"filter[environment_scope]": {"*"}}, nil); err != nil {
		t.Fatal(err)
	}
	l, _ := testLedger(t)
	// The production run stops after its create: its variable's update
	// is refused.
	f := &faultyGroup{Faulty: &flowtest.Faulty{Client: c}, refuseUpdate: true}
	prod := RotateChange{Variable: "SENTRY_DSN", Scope: "production", KeepVariables: true, Ledger: l}
	first := runPlan(t, ctx, plan(t, f, flowtest.Fleet(), false, prod), f, nil)
	open := l.OpenRotations(2001)
	if first.Items[0].Result != ResultFailed {
		t.Fatalf("%+v", first.Items)
	}
	if len(open) != 1 || open[0].NewKeyID == 0 {
		t.Fatalf("%+v", open)
	}
	prodKey := open[0].NewKeyID
	staging := RotateChange{Variable: "SENTRY_DSN", Scope: "staging", KeepVariables: true, Ledger: l}
	p := plan(t, c, flowtest.Fleet(), false, staging)
	if it := p.Items[0]; strings.Contains(it.Action, "go on with") || !strings.Contains(it.Action, "stays while SENTRY_DSN (environment production)") {
		t.Fatalf("staging's plan: %q", it.Action)
	}
	runPlan(t, ctx, p, c, nil)
	if v := flowtest.VariableValue(srv, 2001, "SENTRY_DSN", "production"); v != old.DSN {
		t.Fatalf("production's variable was changed by the staging rotation: %q", v)
	}
	ids := flowtest.KeyIDs(srv.Keys(2001))
	if !slices.Contains(ids, old.ID) {
		t.Fatal("the old key production still uses was deleted")
	}
	staged := flowtest.VariableValue(srv, 2001, "SENTRY_DSN", "staging")
	if staged == old.DSN || strings.Contains(staged, flowtest.PublicKeyOf(srv, 2001, prodKey)) {
		t.Fatalf("staging holds %q: not its own new key", staged)
	}
	if len(ids) != 3 {
		t.Fatalf("keys %v: want the old one, production's and staging's", ids)
	}
}

// A group rotation of one variable makes at most 7 requests per project
// (the plan's keys and variables, the create, the listing check, the
// variable's re-read and update, the delete), and reads each group's
// variables once.
func TestGroupRotationRequestsPerProject(t *testing.T) {
	_, c, _, log := flowtest.MockCounting(t, mockserver.Options{ScaleGroup: 20})
	l, _ := testLedger(t)
	done := runPlan(t, context.Background(), plan(t, c, flowtest.Fleet(), false, keep(l)), c, nil)
	if done.Count(ResultChanged) != 20 {
		t.Fatalf("%+v", done.Items)
	}
	perProject := log.Count(func(r string) bool { return strings.Contains(r, "/projects/") && !strings.HasSuffix(r, "/user") })
	if perProject > 7*20 {
		t.Fatalf("%d project requests for 20 projects: more than 7 each", perProject)
	}
	if n := log.Count(func(r string) bool { return strings.HasPrefix(r, "GET /api/v4/groups/fleet/variables") }); n != 1 {
		t.Fatalf("the group's variables were read %d times", n)
	}
}

// apiKey is the project's first key as the API shows it (with its DSN).
func apiKey(t *testing.T, c *apiclient.Client, project int64) apiclient.ClientKey {
	t.Helper()
	keys, _, err := c.ListClientKeys(context.Background(), apiclient.ProjectID(project))
	if err != nil || len(keys) == 0 {
		t.Fatalf("%v: %v", err, keys)
	}
	return keys[0]
}
