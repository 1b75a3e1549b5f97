package rotation

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
)

// lostCreates makes the key but loses the answer.
type lostCreates struct{ keystore.KeyStore }

func (l lostCreates) Create(ctx context.Context, name string) (*apiclient.ClientKey, error) {
	_, _ = l.KeyStore.Create(ctx, name)
	return nil, flowtest.Lost
}

// A Sentry project with more keys than a record keeps by number: a create
// whose answer was lost is found again by its ref, and gone on with; no
// second key is made.
func TestLostSentryCreateFoundAmongManyKeys(t *testing.T) {
	srv := mocksentry.New(mocksentry.Options{ScaleKeys: 150})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	sc, err := sentry.New(ts.URL, mocksentry.TokenAdmin)
	if err != nil {
		t.Fatal(err)
	}
	store := keystore.SentryKeys(sc, sentry.Project{Base: ts.URL, Org: "demo", Slug: "legacy-api"})
	_, gl := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	keys, _ := store.All(ctx)
	old := keys[len(keys)-1]
	l, _ := testLedger(t)
	o := RotationOptions{OldRef: old.PublicKey, KeepVariables: true, Confirmed: true, Ledger: l}
	o.Keys = lostCreates{store}
	if _, err := NewRotation(apiclient.ProjectID(3), o).Advance(ctx, gl, nil); err == nil {
		t.Fatal("a lost create went unnoticed")
	}
	before := len(srv.Keys("demo", "legacy-api"))
	o.Keys, o.GoOn = store, true
	r, err := NewRotation(apiclient.ProjectID(3), o).Advance(ctx, gl, nil)
	if err != nil || r.Earlier == nil || len(srv.Keys("demo", "legacy-api")) != before-1 {
		t.Fatalf("%v: went on %v, %d keys (had %d)", err, r.Earlier != nil, len(srv.Keys("demo", "legacy-api")), before)
	}
}

// The old key of an open rotation deleted outside its steps (its delete's
// answer lost, or by hand): the next rotation of it finds it gone and closes
// the rotation, as a delete through errtrack does, instead of leaving it
// open with "delete key 1" as its advice.
func TestRotationOfAGoneOldKeyClosesIt(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	l, _ := testLedger(t)
	kept, _ := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, KeepVariables: true, Ledger: l}).Advance(ctx, c, nil)
	_ = kept.ConfirmDelete(false)
	if _, _, err := c.DeleteClientKey(ctx, apiclient.ProjectID(1), 1); err != nil {
		t.Fatal(err)
	}
	again, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Ledger: l, GoOn: true}).Run(ctx, c, StepPlan)
	var none *NoSuchKeyError
	if !errors.As(err, &none) {
		t.Fatalf("%v", err)
	}
	if open := l.OpenRotations(1); len(open) != 0 {
		t.Fatalf("the rotation of a key that is gone stays open: %+v", open)
	}
	if rec, _ := l.store.Get(kept.rec.ID); rec.Phase != ledger.PhaseSettled {
		t.Fatalf("%+v", rec)
	}
	if w := again.Failure(flowtest.ExplainPlain, testChecks); !strings.Contains(w, "finish") || !strings.Contains(w, fmt.Sprint(kept.New.ID)) {
		t.Fatalf("the words do not say the rotation to key %d is finished: %s", kept.New.ID, w)
	} else if !strings.Contains(w, fmt.Sprintf("SENTRY_DSN (all environments) still held its DSN: point it at key %d's DSN", kept.New.ID)) {
		t.Fatalf("the words do not say SENTRY_DSN still holds the deleted key's DSN: %s", w)
	}
}

// A single rotation stopped with both keys (keys rotate --yes while a
// variable holds the old DSN) is gone on with by the next rotation of the
// same key: the retry makes no key, points the variable at the key the
// first made, and deletes the old one. Exactly one create at the server.
func TestRetryGoesOnWithItsKey(t *testing.T) {
	srv, c, creates, _ := flowtest.MockCounting(t, mockserver.Options{})
	srv.MakeGroupOwner("demo", 1)
	ctx := context.Background()
	l, _ := testLedger(t)
	l = l.WithFrontEnd(FrontEndCommand)
	first := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Confirmed: true, Ledger: l, GoOn: true})
	first, err := first.Advance(ctx, c, nil)
	if err != nil || first.Next() != StepChooseVariables {
		t.Fatalf("%v: stopped at %d", err, first.Next())
	}
	made := first.New.ID
	first = first.Stop() // what keys rotate --yes does there
	retry := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Confirmed: true, UpdateVariables: true, Ledger: l, GoOn: true})
	retry, err = retry.Advance(ctx, c, nil)
	if err != nil || !retry.Deleted || !retry.GoingOn() || retry.New.ID != made {
		t.Fatalf("%v: deleted %v, going on %v, new %+v", err, retry.Deleted, retry.GoingOn(), retry.New)
	}
	if n := creates.Load(); n != 1 {
		t.Fatalf("%d creates for one rotation", n)
	}
	if v := flowtest.SentryDSN(t, srv); !strings.Contains(v, flowtest.PublicKeyOf(srv, 1, made)) {
		t.Fatalf("SENTRY_DSN %q is not on key %d", v, made)
	}
	recs := l.Store().Records(func(r ledger.Record) bool { return r.Kind == ledger.KindRotation })
	if len(recs) != 1 || recs[0].Phase != ledger.PhaseDone || recs[0].NewKeyID != made || recs[0].FrontEnd != FrontEndCommand {
		t.Fatalf("%+v", recs)
	}
}

// --restart (the console's m) leaves the key the unfinished rotation made
// as it is, closing that rotation with a note naming the key, and makes a
// new one.
func TestRestartLeavesTheKeyAndMakesANew(t *testing.T) {
	_, c, creates, _ := flowtest.MockCounting(t, mockserver.Options{})
	ctx := context.Background()
	l, _ := testLedger(t)
	first, _ := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Confirmed: true, Ledger: l}).Advance(ctx, c, nil)
	made := first.New.ID
	again := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Ledger: l})
	again, err := again.Run(ctx, c, StepPlan)
	if err != nil || again.Next() != StepResume || again.Earlier.NewKeyID != made {
		t.Fatalf("%v: the console is not asked whether to go on (next %d)", err, again.Next())
	}
	again, _ = again.Restart().Run(ctx, c, StepCreate)
	if again.New == nil || again.New.ID == made || creates.Load() != 2 {
		t.Fatalf("restart: %+v, %d creates", again.New, creates.Load())
	}
	left, _ := l.Store().Get(first.Record().ID)
	if left.Phase != ledger.PhaseAbandoned || !strings.Contains(left.Note, "key") {
		t.Fatalf("the left rotation: %+v", left)
	}
}

// A rotation of a project another run is creating a key in right now is
// refused before its create; one whose key another run made since its plan
// stops too, and the next goes on with that key.
func TestRotationsMeetingEachOther(t *testing.T) {
	_, c, creates, _ := flowtest.MockCounting(t, mockserver.Options{})
	ctx := context.Background()
	la, other := testLedger(t)
	lb := other()
	held, err := lb.Store().Claim(ledger.ProjectClaim(flowtest.TestHost, 1))
	if err != nil {
		t.Fatal(err)
	}
	r, _ := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Ledger: la, GoOn: true}).Run(ctx, c, StepPlan)
	_, err = r.Run(ctx, c, StepCreate)
	var busy *BusyError
	if !errors.As(err, &busy) || creates.Load() != 0 {
		t.Fatalf("%v, %d creates", err, creates.Load())
	}
	held()
	// b makes a key for the same rotation between a's plan and create.
	b, _ := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Ledger: lb, GoOn: true}).Run(ctx, c, StepPlan)
	if _, err := b.Run(ctx, c, StepCreate); err != nil {
		t.Fatal(err)
	}
	_, err = r.Run(ctx, c, StepCreate)
	var meanwhile *MadeMeanwhileError
	if !errors.As(err, &meanwhile) || creates.Load() != 1 {
		t.Fatalf("%v, %d creates", err, creates.Load())
	}
	if w, ok := Problem(err, ProblemWords{Again: "run the command again"}); !ok || !strings.Contains(w, "go on with it") {
		t.Fatal(w)
	}
}

// Deleting a rotation's old key by hand finishes it; deleting its new key
// closes it (nothing replaced the old key).
func TestDeleteClosesRotations(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	l, _ := testLedger(t)
	kept, _ := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, KeepVariables: true, Ledger: l}).Advance(ctx, c, nil)
	_ = kept.ConfirmDelete(false)
	if len(l.OpenRotations(1)) != 1 {
		t.Fatal("a rotation that kept its old key is not open")
	}
	d, err := planDeletion(ctx, c, apiclient.ProjectID(1), 1, true)
	if err != nil {
		t.Fatal(err)
	}
	if d, err = d.Run(ctx, c, l); err != nil || len(d.Closed) != 1 || !strings.Contains(d.Outcome(""), "finishes the rotation") {
		t.Fatalf("%v: %+v", err, d.Closed)
	}
	if len(l.OpenRotations(1)) != 0 {
		t.Fatal("the rotation is still open after its old key was deleted")
	}
	// The other way: the new key of an open rotation deleted.
	kept2, _ := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 2, KeepVariables: true, Ledger: l}).Advance(ctx, c, nil)
	d, _ = planDeletion(ctx, c, apiclient.ProjectID(1), kept2.New.ID, true)
	if d, err = d.Run(ctx, c, l); err != nil || len(d.Closed) != 1 || d.Closed[0].Phase != ledger.PhaseAbandoned {
		t.Fatalf("%v: %+v", err, d.Closed)
	}
}

// The ledger keeps what a rotation did to its variables through every
// step after it: a test event, the delete question answered No, and a run
// gone on with later, which no longer sees the variable it repointed.
func TestLedgerKeepsTheVariablesARotationChanged(t *testing.T) {
	_, c := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	l, _ := testLedger(t)
	r, _ := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, UpdateVariables: true, Verify: true, Ledger: l}).Advance(ctx, c, nil)
	if r.Next() != StepConfirmDelete {
		t.Fatalf("at %v, want the delete question", r.Next())
	}
	r.ConfirmDelete(false).Advance(ctx, c, nil)
	open := l.OpenRotations(1)
	updated := func(rec ledger.Record) bool {
		return slices.ContainsFunc(rec.Variables, func(v ledger.Variable) bool { return v.Key == "SENTRY_DSN" && v.Result == "updated" })
	}
	if len(open) != 1 || !updated(open[0]) || open[0].TestEvent == nil || strings.Contains(LeftToDo(open[0], Checks{}), "point SENTRY_DSN") {
		t.Fatalf("after the test event and a kept key: %+v, left to do %q", open, LeftToDo(open[0], Checks{}))
	}
	// Gone on with: the old key deleted, the variable still recorded.
	if _, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Confirmed: true, GoOn: true, Ledger: l}).Advance(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	rec, _ := l.Store().Get(open[0].ID)
	if rec.Phase != ledger.PhaseDone || !updated(rec) {
		t.Fatalf("the finished rotation forgot its variable: %+v", rec)
	}
}

// A rotation's own delete ends the rotations its old key ends: one that
// made that key (kept, then replaced by another rotation) is abandoned,
// not left open asking to go on with a key that is gone.
func TestRotationsDeleteEndsTheRotationThatMadeItsOldKey(t *testing.T) {
	_, c := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	l, _ := testLedger(t)
	a, _ := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, KeepVariables: true, Ledger: l}).Advance(ctx, c, nil)
	a = a.ConfirmDelete(false)
	if _, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: a.New.ID, KeepVariables: true, Confirmed: true, Ledger: l}).Advance(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	for _, rec := range l.OpenRotations(1) {
		if rec.NewKeyID == a.New.ID {
			t.Fatalf("the rotation that made key %d is still open: %+v", a.New.ID, rec)
		}
	}
}
