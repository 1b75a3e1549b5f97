package change

import (
	"context"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/rotation"
)

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
