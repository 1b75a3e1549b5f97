package rotation

import (
	"context"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
)

func TestRotationSteps(t *testing.T) {
	srv, c := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	plan := func(ref int64, old int64) (Rotation, error) {
		return NewRotation(apiclient.ProjectID(ref), RotationOptions{OldID: old}).Run(ctx, c, StepPlan)
	}
	if _, err := plan(1, 0); !strings.Contains(errString(err), "has 2 client keys") {
		t.Fatalf("err = %v", err)
	}
	if _, err := plan(1, 99); !strings.Contains(errString(err), "no client key 99") {
		t.Fatalf("err = %v", err)
	}
	r, err := plan(5, 0)
	if err != nil || r.Old.ID != 3 || r.Project.Path != "demo/paused" || r.Next() != StepCreate {
		t.Fatal(r, err)
	}
	if !strings.Contains(r.State(Checks{}), "untouched") {
		t.Fatal(r.State(Checks{}))
	}
	if r, err = r.Run(ctx, c, StepCreate); err != nil || r.New == nil {
		t.Fatal(r, err)
	}
	if r, err = r.Run(ctx, c, StepCheck); err != nil || !r.Listed || r.Next() != StepConfirmDelete {
		t.Fatal(r, err)
	}
	r = r.ConfirmDelete(true)
	if r, err = r.Run(ctx, c, StepDelete); err != nil || !r.Deleted || r.OldGone || r.Next() != StepDone {
		t.Fatal(r, err)
	}
	if !strings.Contains(r.State(Checks{}), "which is deleted") {
		t.Fatal(r.State(Checks{}))
	}
	if keys := srv.Keys(5); len(keys) != 1 || keys[0].ID != r.New.ID {
		t.Fatalf("keys %v", keys)
	}
	// The old key deleted elsewhere in between is still a rotation done.
	r2, _ := NewRotation(apiclient.ProjectID(5), RotationOptions{Confirmed: true}).Run(ctx, c, StepPlan)
	r2, _ = r2.Run(ctx, c, StepCreate)
	r2, _ = r2.Run(ctx, c, StepCheck)
	c.DeleteClientKey(ctx, apiclient.ProjectID(5), r2.Old.ID)
	if r2, err = r2.Run(ctx, c, StepDelete); err != nil || !r2.OldGone || !strings.Contains(r2.State(Checks{}), "already gone") {
		t.Fatal(r2, err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
