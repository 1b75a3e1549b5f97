package rotation

import (
	"context"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
)

// A production-scoped rotation whose create lost its answer (key A made),
// then a staging-scoped rotation of the same key that made key B: the
// production rotation asked again goes on with key A. Key B is staging's
// new key, as the ledger says, so it is no candidate: no second key, no
// restart asked for.
func TestLostCreateIgnoresAnotherRotationsNewKey(t *testing.T) {
	_, c, creates, _ := flowtest.MockCounting(t, mockserver.Options{})
	ctx := context.Background()
	l, _ := testLedger(t)
	prod := ledger.Record{Kind: ledger.KindRotation, ID: "r-prod", Host: flowtest.TestHost, ProjectID: 7, OldKeyID: 901,
		Named: &ledger.Variable{Key: "SENTRY_DSN", Scope: "production"}, Phase: ledger.PhaseCreating,
		Before: []string{"901"}, BeforeMax: 901, BeforeComplete: true, Started: time.Now().Add(-time.Hour)}
	if err := l.Put(prod, true); err != nil {
		t.Fatal(err)
	}
	a, _, err := c.CreateClientKey(ctx, apiclient.ProjectID(7)) // the lost create's key
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := c.CreateClientKey(ctx, apiclient.ProjectID(7)) // staging's
	if err != nil {
		t.Fatal(err)
	}
	staging := ledger.Record{Kind: ledger.KindRotation, ID: "r-staging", Host: flowtest.TestHost, ProjectID: 7, OldKeyID: 901,
		NewKeyID: b.ID, NewPublic: b.PublicKey, Named: &ledger.Variable{Key: "SENTRY_DSN", Scope: "staging"},
		Phase: ledger.PhaseVariables, Before: []string{"901", "1"}, BeforeComplete: true, Started: time.Now().Add(-time.Minute)}
	staging.Before[1] = keystore.KeyRef(*a)
	if err := l.Put(staging, true); err != nil {
		t.Fatal(err)
	}
	creates.Store(0)
	r, err := NewRotation(apiclient.ProjectID(7), RotationOptions{OldID: 901, Variable: "SENTRY_DSN", Scope: "production", Ledger: l, GoOn: true}).Run(ctx, c, StepPlan)
	if err != nil {
		t.Fatalf("the third run stops: %v", err)
	}
	if r.Earlier == nil || r.Earlier.ID != "r-prod" || r.Earlier.NewKeyID != a.ID {
		t.Fatalf("it goes on with %+v, want production's key %d", r.Earlier, a.ID)
	}
	if rec, _ := l.store.Get("r-prod"); rec.NewKeyID != a.ID || rec.Phase != ledger.PhaseCreated {
		t.Fatalf("the ledger says %+v", rec)
	}
	if creates.Load() != 0 {
		t.Fatalf("%d keys made", creates.Load())
	}
}

// One GitLab under two spellings of its host (localhost and 127.0.0.1, a
// port written 018236, a trailing dot) is one host to the ledger and its
// claims: the second run goes on with the key the first made.
func TestOneGitLabUnderTwoSpellingsIsOneHost(t *testing.T) {
	gsrv, c, creates, _ := flowtest.MockCounting(t, mockserver.Options{})
	gsrv.MakeGroupOwner("demo", 1)
	ctx := context.Background()
	dir := t.TempDir()
	open := func(host string) *Rotations {
		store, err := ledger.OpenLedger(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		return NewRotations(store, host, FrontEndCommand).WithUser("tester")
	}
	first, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Confirmed: true, Ledger: open("http://localhost:18236"), GoOn: true}).Advance(ctx, c, nil)
	if err != nil || first.Next() != StepChooseVariables {
		t.Fatalf("%v: stopped at %d", err, first.Next())
	}
	first.Stop()
	other := open("http://LOCALHOST.:018236")
	if ledger.ProjectClaim("http://127.0.0.1:18236", 1) != ledger.ProjectClaim("http://localhost:018236/", 1) {
		t.Fatal("one project's claim has two names")
	}
	retry, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Confirmed: true, UpdateVariables: true, Ledger: open("http://127.0.0.1:018236"), GoOn: true}).Advance(ctx, c, nil)
	if err != nil || !retry.GoingOn() || retry.New.ID != first.New.ID || !retry.Deleted {
		t.Fatalf("%v: going on %v, new %+v", err, retry.GoingOn(), retry.New)
	}
	if n := creates.Load(); n != 1 {
		t.Fatalf("%d keys made for one rotation", n)
	}
	if open := other.OpenRotations(1); len(open) != 0 {
		t.Fatalf("still open under the other spelling: %+v", open)
	}
}
