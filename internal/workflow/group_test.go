package workflow

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
)

func demoGroup(t *testing.T) apiclient.GroupRef {
	g, err := apiclient.ParseGroupRef("demo")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

var groupRotation = GroupOptions{Subgroups: true, Variable: "SENTRY_DSN"}

func byPath(p GroupPlan) map[string]GroupItem {
	m := map[string]GroupItem{}
	for _, it := range p.Items {
		m[it.Project.Path] = it
	}
	return m
}

func checksFor(Project) Checks { return testChecks }

// The group rotation is the rotation plan per project: it rotates the key
// SENTRY_DSN holds where it holds one, and skips, with the reason, the
// projects without it and those the user does not maintain.
func TestGroupRotation(t *testing.T) {
	srv, c := mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	plan, err := PlanGroupRotation(ctx, c, demoGroup(t), groupRotation, nil)
	if err != nil {
		t.Fatal(err)
	}
	items := byPath(plan)
	if plan.Acting() != 2 || items["demo/web-shop"].OldID != 1 || items["demo/mobile/ios"].OldID != 901 {
		t.Fatalf("%+v", plan.Items)
	}
	if s := items["demo/mobile/kiosk"].Action(); !strings.Contains(s, "not a Maintainer") {
		t.Fatal(s)
	}
	if s := items["demo/mobile/android"].Action(); !strings.Contains(s, "no CI/CD variable SENTRY_DSN") {
		t.Fatal(s)
	}
	if srv.KeyCount(1) != 2 || srv.KeyCount(7) != 1 {
		t.Fatal("the plan changed something")
	}
	done := plan.Run(ctx, c, nil, explainPlain, checksFor, nil)
	if done.Failed() != 0 {
		t.Fatalf("%+v", done.Items)
	}
	for _, id := range []int64{1, 7} {
		keys := srv.Keys(id)
		var v string
		for _, x := range srv.Variables(id) {
			if x.Key == "SENTRY_DSN" {
				v = x.Value
			}
		}
		if !strings.Contains(v, keys[len(keys)-1].PublicKey) {
			t.Fatalf("project %d: SENTRY_DSN %q does not hold the new key", id, v)
		}
	}
	if srv.KeyCount(7) != 1 || srv.Keys(7)[0].ID == 901 {
		t.Fatalf("project 7 keys %v", srv.Keys(7))
	}
}

// A run interrupted after a project's create goes on, started again, with
// the key it created: every rotated project ends with exactly one new key.
// The rotated projects stay in the journal until a run ends with none
// failed, so a run started again before that leaves them alone.
func TestGroupRotationResumes(t *testing.T) {
	srv, c := mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	j, err := OpenJournal(filepath.Join(t.TempDir(), "journal.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The first run loses every DELETE's answer: both projects stop after
	// their create (and update), the journal holding the new keys.
	f := &faultyGroup{faulty: &faulty{Client: c}, failDelete: true}
	plan, _ := PlanGroupRotation(ctx, f, demoGroup(t), groupRotation, j)
	first := plan.Run(ctx, f, j, explainPlain, checksFor, nil)
	if err := first.Finish(j); err != nil || first.Failed() != 2 || j.Unfinished() != 2 {
		t.Fatalf("%v: failed %d, journal %d", err, first.Failed(), j.Unfinished())
	}
	// Started again: the plan goes on with the keys the first run made.
	plan, _ = PlanGroupRotation(ctx, c, demoGroup(t), groupRotation, j)
	if it := byPath(plan)["demo/mobile/ios"]; it.Resume == nil || !strings.Contains(it.Action(), "go on with key") || plan.Resuming() != 2 {
		t.Fatalf("%+v", it)
	}
	second := plan.Run(ctx, c, j, explainPlain, checksFor, nil)
	if second.Failed() != 0 || j.Unfinished() != 0 || j.Pending() != 2 {
		t.Fatalf("%+v", second.Items)
	}
	if srv.KeyCount(7) != 1 || srv.KeyCount(1) != 2 {
		t.Fatalf("keys: project 7 %v, project 1 %v", srv.Keys(7), srv.Keys(1))
	}
	// Until the run is finished, a run started again rotates neither.
	again, _ := PlanGroupRotation(ctx, c, demoGroup(t), groupRotation, j)
	if again.Acting() != 0 || again.RotatedBefore() != 2 || !strings.Contains(byPath(again)["demo/mobile/ios"].Action(), "rotated by an earlier run") {
		t.Fatalf("%+v", again.Items)
	}
	if err := second.Finish(j); err != nil || j.Pending() != 0 {
		t.Fatalf("%v: %d entries after a run with no failure", err, j.Pending())
	}
	if next, _ := PlanGroupRotation(ctx, c, demoGroup(t), groupRotation, j); next.Acting() != 2 {
		t.Fatalf("a finished rotation's projects are not rotated again: %+v", next.Items)
	}
}

// Interrupted after some projects were rotated and before the others
// started, the run started again rotates only the others: no project gets
// two new keys.
func TestGroupRotationInterruptedMidGroup(t *testing.T) {
	srv, c, creates := mockCountingCreates(t, mockserver.Options{ScaleGroup: 6})
	ctx, cancel := context.WithCancel(context.Background())
	j, _ := OpenJournal(filepath.Join(t.TempDir(), "journal.json"))
	ref, _ := apiclient.ParseGroupRef("fleet")
	o := GroupOptions{Variable: "SENTRY_DSN", KeepVariables: true}
	plan, _ := PlanGroupRotation(ctx, c, ref, o, j)
	ended := 0
	plan.Run(ctx, c, j, explainPlain, checksFor, func(GroupItem) {
		if ended++; ended == 3 {
			cancel() // Ctrl+C
		}
	})
	plan, _ = PlanGroupRotation(context.Background(), c, ref, o, j)
	if plan.RotatedBefore() < 3 {
		t.Fatalf("the run started again does not know the %d projects rotated: %+v", ended, plan.Items)
	}
	done := plan.Run(context.Background(), c, j, explainPlain, checksFor, nil)
	if err := done.Finish(j); err != nil || done.Failed() != 0 || j.Pending() != 0 {
		t.Fatalf("%v: %+v", err, done.Items)
	}
	for id := int64(2001); id <= 2006; id++ {
		if keys := srv.Keys(id); len(keys) != 1 || keys[0].ID == 200000+id-2000 || keys[0].ID < 1 {
			t.Fatalf("project %d keys %+v", id, keys)
		}
	}
	// Counted at the server: a create cancelled in flight may still be
	// made there (the next run goes on with it).
	if n := creates.Load(); n != 6 {
		t.Fatalf("%d keys created for 6 projects", n)
	}
}

// mockCountingCreates is the mock server behind a handler counting the
// client keys it created.
func mockCountingCreates(t *testing.T, opts mockserver.Options) (*mockserver.Server, *apiclient.Client, *atomic.Int64) {
	t.Helper()
	srv, err := mockserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w}
		srv.ServeHTTP(rec, r)
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/client_keys") && rec.status == http.StatusCreated {
			n.Add(1)
		}
	}))
	t.Cleanup(ts.Close)
	c, err := apiclient.New(ts.URL, mockserver.TokenMaintainer, apiclient.WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return srv, c, &n
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

// A create whose answer was lost is not sent again: the run started again
// goes on with the key that was not there before it, or plans afresh when
// there is none, or leaves the project to the user when several appeared;
// a project whose old key is gone since is settled.
func TestGroupRotationNeverCreatesTwice(t *testing.T) {
	srv, c := mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	j, _ := OpenJournal(filepath.Join(t.TempDir(), "journal.json"))
	f := &faultyGroup{faulty: &faulty{Client: c, create: func(k *apiclient.ClientKey) (*apiclient.ClientKey, error) { return nil, lost }}}
	plan, _ := PlanGroupRotation(ctx, f, demoGroup(t), groupRotation, j)
	plan.Run(ctx, f, j, explainPlain, checksFor, nil)
	made := slices.DeleteFunc(keyIDs(srv.Keys(7)), func(id int64) bool { return id == 901 })
	if len(made) != 1 {
		t.Fatalf("ios keys %v", srv.Keys(7))
	}
	plan, _ = PlanGroupRotation(ctx, c, demoGroup(t), groupRotation, j)
	if it := byPath(plan)["demo/mobile/ios"]; it.Resume == nil || it.Resume.NewID != made[0] || !strings.Contains(it.Action(), "go on with key") {
		t.Fatalf("%+v", it)
	}
	done := plan.Run(ctx, c, j, explainPlain, checksFor, nil)
	if ids := keyIDs(srv.Keys(7)); done.Failed() != 0 || !slices.Equal(ids, made) {
		t.Fatalf("ios keys %v, want only %v: %+v", ids, made, done.Items)
	}

	before := keyIDs(srv.Keys(7))
	held := func(e JournalEntry) GroupItem {
		j, _ := OpenJournal(filepath.Join(t.TempDir(), "journal.json"))
		if err := j.Record(e); err != nil {
			t.Fatal(err)
		}
		p, _ := PlanGroupRotation(ctx, c, demoGroup(t), groupRotation, j)
		return byPath(p)["demo/mobile/ios"]
	}
	old := before[0]
	// No key appeared: the create was never made, planned afresh.
	if it := held(JournalEntry{ProjectID: 7, OldID: old, Phase: PhaseCreating, Before: before}); it.Skip != "" || it.Resume != nil || it.Action() != fmt.Sprintf("rotate key %d", old) {
		t.Fatalf("%+v", it)
	}
	// Two keys appeared: which one it made is not known.
	for range 2 {
		if _, _, err := c.CreateClientKey(ctx, apiclient.ProjectID(7)); err != nil {
			t.Fatal(err)
		}
	}
	if it := held(JournalEntry{ProjectID: 7, OldID: old, Phase: PhaseCreating, Before: before}); it.Result != ResultFailed || !strings.Contains(it.Skip, "may have created") {
		t.Fatalf("%+v", it)
	}
	// An entry from before the keys were kept: left to the user.
	if it := held(JournalEntry{ProjectID: 7, OldID: old, Phase: PhaseCreating}); it.Result != ResultFailed || !strings.Contains(it.Skip, "may have created") {
		t.Fatalf("%+v", it)
	}
	// The old key is gone (rotated by hand since): settled, not rotated.
	gj, _ := OpenJournal(filepath.Join(t.TempDir(), "journal.json"))
	_ = gj.Record(JournalEntry{ProjectID: 7, OldID: 424242, Phase: PhaseCreating, Before: before})
	gone, _ := PlanGroupRotation(ctx, c, demoGroup(t), groupRotation, gj)
	if it := byPath(gone)["demo/mobile/ios"]; it.Result != ResultUnchanged || !strings.Contains(it.Skip, "key 424242 is gone") {
		t.Fatalf("%+v", it)
	}
	if err := gone.Run(ctx, c, gj, explainPlain, checksFor, nil).Finish(gj); err != nil || gj.Pending() != 0 {
		t.Fatalf("%v: %d entries left after the settled project's run", err, gj.Pending())
	}
}

type faultyGroup struct {
	*faulty
	failDelete bool
}

func (f *faultyGroup) DeleteClientKey(ctx context.Context, p apiclient.ProjectRef, id int64) (*apiclient.ClientKey, *apiclient.Response, error) {
	if f.failDelete {
		return nil, nil, lost
	}
	return f.faulty.DeleteClientKey(ctx, p, id)
}

// The mock's fleet group (--scale-group) is a group rotation's worth of
// projects: each is rotated, and its variable then holds its new key. The
// first app's old DSN is also in the group's FLEET_SENTRY_DSN, which
// errtrack does not change: its old key stays, unless --keep-variables.
func TestFleetGroupRotation(t *testing.T) {
	srv, c := mock(t, mockserver.Options{ScaleGroup: 5}, mockserver.TokenMaintainer)
	ctx := context.Background()
	ref, _ := apiclient.ParseGroupRef("fleet")
	plan, err := PlanGroupRotation(ctx, c, ref, GroupOptions{Variable: "SENTRY_DSN"}, nil)
	if err != nil || plan.Acting() != 5 {
		t.Fatalf("%v: %+v", err, plan.Items)
	}
	done := plan.Run(ctx, c, nil, explainPlain, checksFor, nil)
	var groups *GroupVariablesError
	if first := byPath(done)["fleet/app-001"]; first.Result != ResultFailed || srv.KeyCount(2001) != 2 || !strings.Contains(first.Words, "FLEET_SENTRY_DSN") || !errors.As(first.Err, &groups) {
		t.Fatalf("app-001: %s %s, keys %v", first.Result, first.Words, srv.Keys(2001))
	}
	srv, c = mock(t, mockserver.Options{ScaleGroup: 5}, mockserver.TokenMaintainer)
	plan, _ = PlanGroupRotation(ctx, c, ref, GroupOptions{Variable: "SENTRY_DSN", KeepVariables: true}, nil)
	done = plan.Run(ctx, c, nil, explainPlain, checksFor, nil)
	for _, it := range done.Items {
		keys := srv.Keys(it.Project.ID)
		if it.Result != ResultChanged || len(keys) != 1 || keys[0].ID == it.OldID {
			t.Fatalf("%s: %s %+v", it.Project.Path, it.Words, keys)
		}
		if v := srv.Variables(it.Project.ID); len(v) != 1 || !strings.Contains(v[0].Value, keys[0].PublicKey) {
			t.Fatalf("%s: SENTRY_DSN does not hold key %d: %+v", it.Project.Path, keys[0].ID, v)
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
	c, err := apiclient.New(ts.URL, mockserver.TokenMaintainer, apiclient.WithClock(now, sleep))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ref, _ := apiclient.ParseGroupRef("fleet")
	plan, err := PlanGroupRotation(ctx, c, ref, GroupOptions{Variable: "SENTRY_DSN", KeepVariables: true}, nil)
	if err != nil || plan.Acting() != 5 {
		t.Fatalf("%v: %+v", err, plan.Items)
	}
	done := plan.Run(ctx, c, nil, explainPlain, checksFor, nil)
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

// One run of a journal at a time: a second run started meanwhile is
// refused before it changes anything, and a plan made before another run
// changed the journal is refused at its start (plan again).
func TestGroupRotationOneRunAtATime(t *testing.T) {
	_, c := mock(t, mockserver.Options{ScaleGroup: 4}, mockserver.TokenMaintainer)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "journal.json")
	ja, _ := OpenJournal(path)
	jb, _ := OpenJournal(path)
	ref, _ := apiclient.ParseGroupRef("fleet")
	o := GroupOptions{Variable: "SENTRY_DSN", KeepVariables: true}
	a, _ := PlanGroupRotation(ctx, c, ref, o, ja)
	b, _ := PlanGroupRotation(ctx, c, ref, o, jb)
	release, err := a.Begin(ja)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Begin(jb); !errors.Is(err, ErrRunUnderWay) {
		t.Fatalf("a second run at once: %v", err)
	}
	a.Run(ctx, c, ja, explainPlain, checksFor, nil).Finish(ja)
	release()
	release, err = b.Begin(jb)
	if err != nil {
		t.Fatalf("after the first run (journal closed, same as planned): %v", err)
	}
	release()
	// Another run rotates a project after this plan was made.
	projects, _, _ := c.ListGroupProjects(ctx, ref, false)
	PlanRotationFor(ctx, c, projects[:1], o, ja).Run(ctx, c, ja, explainPlain, checksFor, nil)
	if _, err := b.Begin(jb); !errors.Is(err, ErrJournalChanged) {
		t.Fatalf("a plan older than the journal: %v", err)
	}
}

// A run that covers some of an unfinished run's projects (the console's
// marks, a subgroup) does not close the journal: the projects the first
// run rotated are still left alone by the next run of the whole group.
func TestGroupRotationPartialRunKeepsTheJournal(t *testing.T) {
	_, c := mock(t, mockserver.Options{ScaleGroup: 6}, mockserver.TokenMaintainer)
	ctx := context.Background()
	j, _ := OpenJournal(filepath.Join(t.TempDir(), "journal.json"))
	ref, _ := apiclient.ParseGroupRef("fleet")
	o := GroupOptions{Variable: "SENTRY_DSN", KeepVariables: true}
	creates := map[int64]int{}
	var mu sync.Mutex
	count := func(it GroupItem) {
		mu.Lock()
		defer mu.Unlock()
		if it.Rotation.New != nil && it.Resume == nil {
			creates[it.Project.ID]++
		}
	}
	projects, _, _ := c.ListGroupProjects(ctx, ref, false)
	slices.SortFunc(projects, func(a, b apiclient.Project) int { return strings.Compare(a.PathWithNamespace, b.PathWithNamespace) })
	// A run of the whole group rotates the first two projects, then is
	// interrupted before the others start.
	whole, _ := PlanGroupRotation(ctx, c, ref, o, j)
	release, err := whole.Begin(j)
	if err != nil {
		t.Fatal(err)
	}
	PlanRotationFor(ctx, c, projects[:2], o, j).Run(ctx, c, j, explainPlain, checksFor, count)
	release()
	// The console marks only the last project and rotates it: the
	// journal stays, the others still to do.
	part := PlanRotationFor(ctx, c, projects[5:], o, j)
	release, _ = part.Begin(j)
	done := part.Run(ctx, c, j, explainPlain, checksFor, count)
	if err := done.Finish(j); err != nil || j.Pending() != 6 {
		t.Fatalf("%v: the partial run left %d entries, want the 6 of the group", err, j.Pending())
	}
	release()
	again, _ := PlanGroupRotation(ctx, c, ref, o, j)
	if again.Acting() != 3 || again.RotatedBefore() != 3 {
		t.Fatalf("%+v", again.Items)
	}
	release, _ = again.Begin(j)
	done = again.Run(ctx, c, j, explainPlain, checksFor, count)
	if err := done.Finish(j); err != nil || done.Failed() != 0 || j.Pending() != 0 {
		t.Fatalf("%v: %+v", err, done.Items)
	}
	release()
	for _, p := range projects {
		if creates[p.ID] != 1 {
			t.Fatalf("%s got %d new keys: %v", p.PathWithNamespace, creates[p.ID], creates)
		}
	}
}
