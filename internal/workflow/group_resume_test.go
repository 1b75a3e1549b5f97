package workflow

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// changedGroup is the fleet group after the user's world changed between
// runs: gone projects are no longer listed (deleted, or transferred out of
// the group), demoted ones are listed with the Developer role.
type changedGroup struct {
	*apiclient.Client
	gone, demoted map[int64]bool
}

func (g *changedGroup) ListGroupProjectsWith(ctx context.Context, ref apiclient.GroupRef, o apiclient.GroupProjectsOptions) ([]apiclient.Project, *apiclient.Response, error) {
	ps, resp, err := g.Client.ListGroupProjectsWith(ctx, ref, o)
	ps = slices.DeleteFunc(ps, func(p apiclient.Project) bool {
		return g.gone[p.ID] || g.demoted[p.ID] && o.MinAccessLevel >= apiclient.MaintainerAccess
	})
	return ps, resp, err
}

// GetProject answers a demoted project's own record with the Developer role.
func (g *changedGroup) GetProject(ctx context.Context, ref apiclient.ProjectRef) (*apiclient.Project, *apiclient.Response, error) {
	p, resp, err := g.Client.GetProject(ctx, ref)
	if err == nil && g.demoted[p.ID] {
		p.Permissions = &apiclient.Permissions{ProjectAccess: &apiclient.AccessLevel{AccessLevel: apiclient.DeveloperAccess}}
	}
	return p, resp, err
}

func sortedFleet(t *testing.T, c *apiclient.Client) []apiclient.Project {
	ref, _ := apiclient.ParseGroupRef("fleet")
	projects, _, err := c.ListGroupProjects(context.Background(), ref, false)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(projects, func(a, b apiclient.Project) int { return strings.Compare(a.PathWithNamespace, b.PathWithNamespace) })
	return projects
}

// A project rotated by an interrupted run ("done" in the journal), whose
// Maintainer role the user then loses, does not make Begin take the
// journal for changed: the plan reads its entry before skipping it.
func TestGroupRotationDemotedProjectDoesNotBlock(t *testing.T) {
	_, c := mock(t, mockserver.Options{ScaleGroup: 4}, mockserver.TokenMaintainer)
	ctx := context.Background()
	j, _ := OpenJournal(filepath.Join(t.TempDir(), "journal.json"))
	ref, _ := apiclient.ParseGroupRef("fleet")
	o := GroupOptions{Variable: "SENTRY_DSN", KeepVariables: true}
	projects := sortedFleet(t, c)
	whole, _ := PlanGroupRotation(ctx, c, ref, o, j)
	release, err := whole.Begin(j)
	if err != nil {
		t.Fatal(err)
	}
	PlanRotationFor(ctx, c, projects[:1], o, j).Run(ctx, c, j, explainPlain, checksFor, nil) // then Ctrl+C
	release()

	g := &changedGroup{Client: c, demoted: map[int64]bool{projects[0].ID: true}}
	for try := 1; try <= 3; try++ {
		plan, _ := PlanGroupRotation(ctx, g, ref, o, j)
		release, err := plan.Begin(j)
		if errors.Is(err, ErrJournalChanged) {
			if try == 3 {
				t.Fatalf("try %d: %v (no other run exists: the plan is never accepted)", try, err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		release()
		return
	}
}

// A run stopped after a project's create ("created" O->N in the journal);
// the user then deletes the new key N by hand, keeping the old one: the
// next run plans the project afresh instead of failing on N forever.
func TestGroupRotationNewKeyDeletedByHandPlannedAfresh(t *testing.T) {
	srv, c := mock(t, mockserver.Options{ScaleGroup: 1}, mockserver.TokenMaintainer)
	ctx := context.Background()
	j, _ := OpenJournal(filepath.Join(t.TempDir(), "journal.json"))
	ref, _ := apiclient.ParseGroupRef("fleet")
	o := GroupOptions{Variable: "SENTRY_DSN", KeepVariables: true}
	// Ctrl+C right after the creates: the variables are untouched.
	cctx, cancel := context.WithCancel(ctx)
	f := &faultyGroup{faulty: &faulty{Client: c, create: func(k *apiclient.ClientKey) (*apiclient.ClientKey, error) { cancel(); return k, nil }}}
	plan, _ := PlanGroupRotation(ctx, f, ref, o, j)
	release, _ := plan.Begin(j)
	plan.Run(cctx, f, j, explainPlain, checksFor, nil).Finish(j)
	release()
	projects := sortedFleet(t, c)
	p := projects[0].ID
	e, _ := j.Entry(p)
	t.Logf("entry %+v, keys %v, variables %+v", e, keyIDs(srv.Keys(p)), srv.Variables(p))
	if e.Phase != PhaseCreated {
		t.Fatalf("%+v", e)
	}
	if _, _, err := c.DeleteClientKey(ctx, apiclient.ProjectID(p), e.NewID); err != nil { // by hand
		t.Fatal(err)
	}
	// The project is as before any rotation: old key, SENTRY_DSN on it.
	for run := 1; run <= 3; run++ {
		plan, _ := PlanGroupRotation(ctx, c, ref, o, j)
		release, err := plan.Begin(j)
		if err != nil {
			t.Fatal(err)
		}
		done := plan.Run(ctx, c, j, explainPlain, checksFor, nil)
		done.Finish(j)
		release()
		it := byPath(done)[projects[0].PathWithNamespace]
		t.Logf("run %d: %s: %s (keys %v)", run, it.Result, it.Words, keyIDs(srv.Keys(p)))
		if it.Result == ResultChanged {
			return
		}
	}
	t.Fatalf("the project fails in every run; journal still has %d entries", j.Pending())
}

// Begin compares the whole entry a plan read with the journal, not only its
// phase: a plan (the console's dialog left open) that read P "creating"
// from a crashed run is refused once run B finished P and run C began a new
// rotation of P whose create's answer was lost ("creating" again, key N2
// made); accepted, it would settle P with its stale entry and lose N2.
func TestGroupRotationStalePlanRefused(t *testing.T) {
	srv, c := mock(t, mockserver.Options{ScaleGroup: 1}, mockserver.TokenMaintainer)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "journal.json")
	o := GroupOptions{Variable: "SENTRY_DSN", KeepVariables: true}
	projects := sortedFleet(t, c)
	p := projects[0].ID
	lostCreate := &faultyGroup{faulty: &faulty{Client: c, create: func(*apiclient.ClientKey) (*apiclient.ClientKey, error) { return nil, lost }}}
	run := func(api GroupAPI) {
		j, _ := OpenJournal(path)
		plan := PlanRotationFor(ctx, api, projects, o, j)
		release, err := plan.Begin(j)
		if err != nil {
			t.Fatal(err)
		}
		plan.Run(ctx, api, j, explainPlain, checksFor, nil).Finish(j)
		release()
	}
	run(lostCreate) // X: the create's answer is lost (N1 made)
	ja, _ := OpenJournal(path)
	a := PlanRotationFor(ctx, c, projects, o, ja) // A: planned, not started
	run(c)                                        // B: goes on with N1, closes the journal
	run(lostCreate)                               // C: new rotation of N1, answer lost (N2 made)
	jc, _ := OpenJournal(path)
	eC, _ := jc.Entry(p)
	t.Logf("C's entry %+v, keys %v", eC, keyIDs(srv.Keys(p)))
	release, err := a.Begin(ja)
	if errors.Is(err, ErrJournalChanged) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	a.Run(ctx, c, ja, explainPlain, checksFor, nil).Finish(ja)
	release()
	run(c) // the next run
	run(c)
	t.Fatalf("A's stale plan was accepted and overwrote C's entry %+v; after two more runs the project's keys are %v: C's key (made after key %d) was never resumed and stays behind", eC, keyIDs(srv.Keys(p)), eC.OldID)
}

// A project an interrupted run set out to rotate and no later plan reaches
// (deleted, moved to another group) keeps the rotation open: the plans say
// which (Outside), and Restart starts a new rotation, forgetting it.
func TestGroupRotationProjectGoneRestart(t *testing.T) {
	_, c := mock(t, mockserver.Options{ScaleGroup: 6}, mockserver.TokenMaintainer)
	ctx := context.Background()
	j, _ := OpenJournal(filepath.Join(t.TempDir(), "journal.json"))
	ref, _ := apiclient.ParseGroupRef("fleet")
	o := GroupOptions{Variable: "SENTRY_DSN", KeepVariables: true}
	projects := sortedFleet(t, c)
	whole, _ := PlanGroupRotation(ctx, c, ref, o, j)
	release, err := whole.Begin(j)
	if err != nil {
		t.Fatal(err)
	}
	PlanRotationFor(ctx, c, projects[:2], o, j).Run(ctx, c, j, explainPlain, checksFor, nil) // then Ctrl+C
	release()

	g := &changedGroup{Client: c, gone: map[int64]bool{projects[5].ID: true}}
	plan, _ := PlanGroupRotation(ctx, g, ref, o, j)
	release, err = plan.Begin(j)
	if err != nil {
		t.Fatal(err)
	}
	done := plan.Run(ctx, g, j, explainPlain, checksFor, nil)
	if err := done.Finish(j); err != nil || done.Failed() != 0 || plan.Acting() != 3 {
		t.Fatalf("%v: %+v", err, done.Items)
	}
	release()
	if out := done.Outside(j); len(out) != 1 || out[0].ProjectID != projects[5].ID {
		t.Fatalf("outside the plan: %+v", out)
	}
	if next, _ := PlanGroupRotation(ctx, g, ref, o, j); next.Acting() != 0 || next.RotatedBefore() != 5 {
		t.Fatalf("%+v", next.Items)
	}
	made := JournalEntry{ProjectID: 999, OldID: 1, NewID: 2, Phase: PhaseCreated} // a key made elsewhere, unfinished
	if err := j.Record(made); err != nil {
		t.Fatal(err)
	}
	if err := j.Restart(); err != nil || j.Pending() != 1 {
		t.Fatalf("%v: %d entries after a restart, want the made key's only", err, j.Pending())
	}
	if e, ok := j.Entry(999); !ok || e.NewID != 2 {
		t.Fatalf("the made key's entry went: %+v", e)
	}
	_ = j.Forget(999)
	if next, _ := PlanGroupRotation(ctx, g, ref, o, j); next.Acting() != 5 {
		t.Fatalf("a restarted rotation: %+v", next.Items)
	}
}

// A run that goes on with a key an earlier run made, and finds the old key
// gone, settles the project: rotated when the variable holds the new key's
// DSN, and otherwise says the key made is there, unused.
func TestGroupRotationOldKeyGoneOnResume(t *testing.T) {
	for _, held := range []bool{true, false} {
		srv, c := mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
		ctx := context.Background()
		j, _ := OpenJournal(filepath.Join(t.TempDir(), "journal.json"))
		ios := apiclient.ProjectID(7)
		k, _, err := c.CreateClientKey(ctx, ios)
		if err != nil {
			t.Fatal(err)
		}
		if held {
			if _, _, err := c.UpdateVariableValue(ctx, ios, "SENTRY_DSN", "*", k.DSN); err != nil {
				t.Fatal(err)
			}
		}
		if _, _, err := c.DeleteClientKey(ctx, ios, 901); err != nil {
			t.Fatal(err)
		}
		_ = j.Record(JournalEntry{ProjectID: 7, OldID: 901, NewID: k.ID, Phase: PhaseCreated})
		plan, _ := PlanGroupRotation(ctx, c, demoGroup(t), groupRotation, j)
		if it := byPath(plan)["demo/mobile/ios"]; !strings.Contains(it.Action(), "go on with key") {
			t.Fatalf("%+v", it)
		}
		release, err := plan.Begin(j)
		if err != nil {
			t.Fatal(err)
		}
		done := plan.Run(ctx, c, j, explainPlain, checksFor, nil)
		release()
		it := byPath(done)["demo/mobile/ios"]
		want := "Already rotated by an earlier run"
		if !held {
			want = fmt.Sprintf("key %d, which that run made, is still there", k.ID)
		}
		if it.Result != ResultUnchanged || !strings.Contains(it.Words, want) {
			t.Fatalf("held %v: %s: %s", held, it.Result, it.Words)
		}
		if e, _ := j.Entry(7); e.Phase != PhaseDone || !slices.Equal(keyIDs(srv.Keys(7)), []int64{k.ID}) {
			t.Fatalf("entry %+v, keys %v", e, srv.Keys(7))
		}
	}
}
