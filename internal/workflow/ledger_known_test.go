package workflow

import (
	"context"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/ledger"
)

// A production-scoped rotation whose create lost its answer (key A made),
// then a staging-scoped rotation of the same key that made key B: the
// production rotation asked again goes on with key A. Key B is staging's
// new key, as the ledger says, so it is no candidate: no second key, no
// restart asked for.
func TestLostCreateIgnoresAnotherRotationsNewKey(t *testing.T) {
	_, c, creates, _ := mockCounting(t, mockserver.Options{})
	ctx := context.Background()
	l, _ := testLedger(t)
	prod := ledger.Record{Kind: ledger.KindRotation, ID: "r-prod", Host: testHost, ProjectID: 7, OldKeyID: 901,
		Named: &ledger.Variable{Key: "SENTRY_DSN", Scope: "production"}, Phase: ledger.PhaseCreating,
		Before: []string{"901"}, BeforeMax: 901, BeforeComplete: true, Started: time.Now().Add(-time.Hour)}
	if err := l.put(prod, true); err != nil {
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
	staging := ledger.Record{Kind: ledger.KindRotation, ID: "r-staging", Host: testHost, ProjectID: 7, OldKeyID: 901,
		NewKeyID: b.ID, NewPublic: b.PublicKey, Named: &ledger.Variable{Key: "SENTRY_DSN", Scope: "staging"},
		Phase: ledger.PhaseVariables, Before: []string{"901", "1"}, BeforeComplete: true, Started: time.Now().Add(-time.Minute)}
	staging.Before[1] = KeyRef(*a)
	if err := l.put(staging, true); err != nil {
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
