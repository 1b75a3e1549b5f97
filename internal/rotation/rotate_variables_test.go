package rotation

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
)

func TestRotationFindsAndUpdatesTheVariable(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	r, taken, err := steps(t, c, NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1}), true, true)
	if err != nil {
		t.Fatal(err)
	}
	want := []Step{StepPlan, StepCreate, StepCheck, StepChooseVariables, StepUpdateVariables, StepConfirmDelete, StepDelete}
	if !slices.Equal(taken, want) {
		t.Fatalf("steps %v, want %v", taken, want)
	}
	if got := flowtest.SentryDSN(t, srv); got != r.New.DSN {
		t.Fatalf("SENTRY_DSN = %q, want the new DSN", got)
	}
	if got := flowtest.KeyIDs(srv.Keys(1)); slices.Contains(got, 1) || !slices.Contains(got, r.New.ID) {
		t.Fatalf("keys %v", got)
	}
	if r.Holding() != "SENTRY_DSN (all environments)" || r.Variables[0].Result() != "updated" {
		t.Fatalf("%q %q", r.Holding(), r.Variables[0].Result())
	}
	if s := r.State(testChecks); !strings.Contains(s, "SENTRY_DSN (all environments) holds the new DSN") || strings.Contains(s, "Hidden") {
		t.Fatal(s)
	}
}

// Keeping the variables is an answer the user gives knowingly; the state
// then says the variable holds a deleted key's DSN.
func TestRotationKeepVariables(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	old := flowtest.SentryDSN(t, srv)
	r, _, err := steps(t, c, NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1}), false, true)
	if err != nil || !r.Deleted {
		t.Fatal(r, err)
	}
	if flowtest.SentryDSN(t, srv) != old || r.Variables[0].Result() != "unchanged" {
		t.Fatal("variable changed")
	}
	if s := r.State(testChecks); !strings.Contains(s, "still holds the DSN of the deleted key") {
		t.Fatal(s)
	}
}

// An update whose answer was lost may have been applied: "may or may not",
// never "still holds the old DSN", and the old key stays.
func TestVariableUpdateAnswerLost(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	f := &flowtest.Faulty{Client: c, Update: flowtest.Lost}
	r, _, err := steps(t, f, NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1}), true, true)
	var ve *VariableError
	if !errors.As(err, &ve) || !r.Variables[0].Unknown || r.Variables[0].Result() != "unknown" || len(f.Deletes) != 0 {
		t.Fatalf("err = %v %+v", err, r.Variables)
	}
	s := r.Failure(flowtest.ExplainPlain, testChecks)
	if !strings.Contains(s, "may or may not") || strings.Contains(s, "still holds the old DSN") || !strings.Contains(s, testChecks.Variables) {
		t.Fatal(s)
	}
	if !slices.Contains(flowtest.KeyIDs(srv.Keys(1)), 1) {
		t.Fatal("old key deleted")
	}
}

// A refused update is a failure: the old key stays.
func TestVariableUpdateRefused(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	f := &flowtest.Faulty{Client: c, Update: &apiclient.APIError{StatusCode: 400, Kind: apiclient.ErrValidation, Message: "value is invalid"}}
	r, _, err := steps(t, f, NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1}), true, true)
	if err == nil || !r.Variables[0].Failed || len(f.Deletes) != 0 {
		t.Fatal(err, r.Variables)
	}
	if s := r.Failure(flowtest.ExplainPlain, testChecks); !strings.Contains(s, "Set it to the new DSN by hand") {
		t.Fatal(s)
	}
}

// Variables that cannot be read are a question too: the old key goes only
// once the user chose to go on without them.
func TestVariablesUnread(t *testing.T) {
	_, c := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
	f := &flowtest.Faulty{Client: c, ListVars: flowtest.Lost}
	r, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Confirmed: true, UpdateVariables: true}).Advance(context.Background(), f, nil)
	if err != nil || r.Next() != StepChooseVariables || len(f.Deletes) != 0 {
		t.Fatal(r.Next(), err)
	}
	if s := r.State(testChecks); !strings.Contains(s, "could not be read") {
		t.Fatal(s)
	}
	if r.UpdateVariables().Next() != StepChooseVariables {
		t.Fatal("update chosen for variables never read")
	}
	r, err = r.KeepVariables().Advance(context.Background(), f, nil)
	if err != nil || !r.Deleted {
		t.Fatal(err)
	}
	// A named variable that cannot be looked up stops the plan.
	f2 := &flowtest.Faulty{Client: c, ListVars: flowtest.Lost}
	r, err = NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 2, Variable: "SENTRY_DSN"}).Run(context.Background(), f2, StepPlan)
	var unread *VariablesUnreadError
	if !errors.As(err, &unread) || r.Next() != StepDone {
		t.Fatal(err)
	}
}

// --ci-variable names one variable; another that holds the old DSN is still
// a question, and several of the name without a scope stop the plan.
func TestNamedVariable(t *testing.T) {
	ctx := context.Background()
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	r, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Variable: "OTHER_DSN"}).Run(ctx, c, StepPlan)
	if err != nil || len(r.Variables) != 2 || r.Next() != StepCreate {
		t.Fatal(r.Variables, err)
	}
	r, _ = r.Advance(ctx, c, nil)
	if r.Next() != StepChooseVariables {
		t.Fatalf("next %d: SENTRY_DSN holds the old DSN and was not named", r.Next())
	}
	r, err = r.KeepVariables().Advance(ctx, c, nil)
	if err != nil || r.Next() != StepConfirmDelete || r.Variables[1].Result() != "created" || r.Variables[0].Result() != "unchanged" {
		t.Fatal(err, r.Next(), r.Variables)
	}
	_, _, err = c.CreateVariable(ctx, apiclient.ProjectID(1), apiclient.NewVariable{Key: "SENTRY_DSN", Value: "x", EnvironmentScope: "production"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 2, Variable: "SENTRY_DSN"}).Run(ctx, c, StepPlan)
	var amb *AmbiguousVariableError
	if !errors.As(err, &amb) || len(amb.Scopes) != 2 {
		t.Fatal(err)
	}
	r, err = NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 2, Variable: "SENTRY_DSN", Scope: "production"}).Run(ctx, c, StepPlan)
	if err != nil || len(r.Variables) != 1 || r.Variables[0].Scope != "production" {
		t.Fatal(err, r.Variables)
	}
}

func TestHiddenVariablesAreNamed(t *testing.T) {
	p, err := planVariables([]apiclient.Variable{{Key: "SECRET", EnvironmentScope: "*", Hidden: true}}, "http://k@h/1", "", "")
	if err != nil || len(p.hidden) != 1 || p.hidden[0] != "SECRET (all environments)" || len(p.targets) != 0 {
		t.Fatal(p, err)
	}
	r := Rotation{New: &apiclient.ClientKey{ID: 2}, Hidden: p.hidden}
	if s := r.VariablesState(testChecks); !strings.Contains(s, "SECRET") {
		t.Fatal(s)
	}
}
