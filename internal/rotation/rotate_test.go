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
	"github.com/errtrack/errtrack/internal/testevent"
	"github.com/errtrack/errtrack/internal/wording"
)

var testChecks = Checks{Keys: "check with 'errtrack keys list -p 1'", Variables: "check with 'errtrack api projects/1/variables'"}

// steps runs r to the end, answering the questions with update and
// confirm, and returns the steps taken.
func steps(t *testing.T, api RotationAPI, r Rotation, update, confirm bool) (Rotation, []Step, error) {
	t.Helper()
	var taken []Step
	for s := r.Next(); s != StepDone; s = r.Next() {
		taken = append(taken, s)
		switch s {
		case StepChooseVariables:
			if update {
				r = r.UpdateVariables()
			} else {
				r = r.KeepVariables()
			}
		case StepConfirmDelete:
			r = r.ConfirmDelete(confirm)
		default:
			var err error
			if r, err = r.Run(context.Background(), api, s); err != nil {
				return r, taken, err
			}
		}
	}
	return r, taken, nil
}

// --yes alone answers the delete question, not the variables one: the
// rotation stops at it with both keys, and never deletes key 1.
func TestRotationConfirmedStopsAtVariables(t *testing.T) {
	srv, c := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
	r, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Confirmed: true}).Advance(context.Background(), c, nil)
	if err != nil || r.Next() != StepChooseVariables || r.New == nil || !r.Listed {
		t.Fatal(r.Next(), err)
	}
	r = r.Stop()
	if !r.Kept() || !slices.Contains(flowtest.KeyIDs(srv.Keys(1)), 1) {
		t.Fatal("old key gone")
	}
	if s := r.State(testChecks); !strings.Contains(s, "Both keys exist") || !strings.Contains(s, "SENTRY_DSN (all environments) still holds the old DSN") {
		t.Fatal(s)
	}
	// --update-variables and --keep-variables answer it beforehand.
	r, err = NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: r.New.ID, Confirmed: true, UpdateVariables: true}).Advance(context.Background(), c, nil)
	if err != nil || !r.Deleted {
		t.Fatal(err)
	}
	_ = r
}

// Each guard of the delete, removed or inverted, lets a key go that must
// stay: every one is exercised here on a rotation otherwise ready to delete.
func TestDeleteGuards(t *testing.T) {
	ctx := context.Background()
	ready := func(t *testing.T) (*flowtest.Faulty, Rotation) {
		_, c := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
		f := &flowtest.Faulty{Client: c}
		r, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Confirmed: true, UpdateVariables: true}).Advance(ctx, f, func(s Step, r Rotation) {})
		_ = r
		r2, err2 := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 2, Confirmed: true}).Run(ctx, f, StepPlan)
		if err != nil || err2 != nil {
			t.Fatal(err, err2)
		}
		r2, _ = r2.Run(ctx, f, StepCreate)
		r2, _ = r2.Run(ctx, f, StepCheck)
		if r2.Next() != StepDelete || r2.deleteSafe() != nil {
			t.Fatalf("not ready: %d %v", r2.Next(), r2.deleteSafe())
		}
		f.Deletes = nil
		return f, r2
	}
	for name, spoil := range map[string]func(Rotation) Rotation{
		"not listed":       func(r Rotation) Rotation { r.Listed = false; return r },
		"no new key":       func(r Rotation) Rotation { r.New = nil; return r },
		"new is old":       func(r Rotation) Rotation { n := *r.New; n.ID = r.Old.ID; r.New = &n; return r },
		"not confirmed":    func(r Rotation) Rotation { r.confirmed = false; return r },
		"event refused":    func(r Rotation) Rotation { r.Verified = &apiclient.DSNCheck{StatusCode: 403}; return r },
		"variables unread": func(r Rotation) Rotation { r.VariablesErr = flowtest.Lost; return r },
		"variable on old DSN": func(r Rotation) Rotation {
			r.Variables = []VariableTarget{{Key: "SENTRY_DSN", Scope: "*", HoldsOld: true, Exists: true}}
			return r
		},
	} {
		t.Run(name, func(t *testing.T) {
			f, r := ready(t)
			r = spoil(r)
			_, err := r.deleteOld(ctx, f)
			var unsafe *UnsafeDeleteError
			if !errors.As(err, &unsafe) || len(f.Deletes) != 0 {
				t.Fatalf("err = %v, deletes %v", err, f.Deletes)
			}
		})
	}
	// Keeping the variables, knowingly, lifts the last two guards.
	t.Run("kept", func(t *testing.T) {
		f, r := ready(t)
		r.Variables = []VariableTarget{{Key: "SENTRY_DSN", Scope: "*", HoldsOld: true, Exists: true}}
		r.VariablesErr = flowtest.Lost
		r = r.KeepVariables()
		if _, err := r.deleteOld(ctx, f); err != nil || len(f.Deletes) != 1 {
			t.Fatal(err, f.Deletes)
		}
	})
}

// A create answer that names a key that existed before is no new key: the
// rotation stops and deletes nothing.
func TestCreateAnswerThatIsNotNew(t *testing.T) {
	for name, fake := range map[string]func(old apiclient.ClientKey) func(*apiclient.ClientKey) (*apiclient.ClientKey, error){
		"old key": func(old apiclient.ClientKey) func(*apiclient.ClientKey) (*apiclient.ClientKey, error) {
			return func(*apiclient.ClientKey) (*apiclient.ClientKey, error) { return &old, nil }
		},
		"old DSN": func(old apiclient.ClientKey) func(*apiclient.ClientKey) (*apiclient.ClientKey, error) {
			return func(k *apiclient.ClientKey) (*apiclient.ClientKey, error) { n := *k; n.DSN = old.DSN; return &n, nil }
		},
		"old public key": func(old apiclient.ClientKey) func(*apiclient.ClientKey) (*apiclient.ClientKey, error) {
			return func(k *apiclient.ClientKey) (*apiclient.ClientKey, error) {
				n := *k
				n.PublicKey = old.PublicKey
				return &n, nil
			}
		},
		"other key": func(old apiclient.ClientKey) func(*apiclient.ClientKey) (*apiclient.ClientKey, error) {
			return func(k *apiclient.ClientKey) (*apiclient.ClientKey, error) { n := *k; n.ID = 2; return &n, nil }
		},
	} {
		t.Run(name, func(t *testing.T) {
			srv, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
			f := &flowtest.Faulty{Client: c}
			r, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Confirmed: true, KeepVariables: true}).Run(context.Background(), f, StepPlan)
			if err != nil {
				t.Fatal(err)
			}
			f.Create = fake(r.Old)
			r, _, err = steps(t, f, r, true, true)
			var notNew *NotNewError
			if !errors.As(err, &notNew) || r.New != nil || len(f.Deletes) != 0 || !slices.Contains(flowtest.KeyIDs(srv.Keys(1)), 1) {
				t.Fatalf("err = %v, new %v, deletes %v", err, r.New, f.Deletes)
			}
			if s := r.Failure(flowtest.ExplainPlain, testChecks); !strings.Contains(s, "No new key is known") || !strings.Contains(s, "may or may not have been created") {
				t.Fatal(s)
			}
		})
	}
}

// The check: a new key the server does not list stops the rotation.
func TestNewKeyNotListed(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	f := &flowtest.Faulty{Client: c}
	r, err := NewRotation(apiclient.ProjectID(5), RotationOptions{Confirmed: true}).Run(context.Background(), f, StepPlan)
	if err != nil {
		t.Fatal(err)
	}
	f.List = func(keys []apiclient.ClientKey) []apiclient.ClientKey {
		return slices.DeleteFunc(keys, func(k apiclient.ClientKey) bool { return k.ID != r.Old.ID })
	}
	r, _, err = steps(t, f, r, true, true)
	var nl *NotListedError
	if !errors.As(err, &nl) || r.Listed || len(f.Deletes) != 0 || len(srv.Keys(5)) != 2 {
		t.Fatalf("err = %v, deletes %v", err, f.Deletes)
	}
	if s := r.Failure(flowtest.ExplainPlain, testChecks); !strings.Contains(s, "does not list the new key") || !strings.Contains(s, "Both keys exist") {
		t.Fatal(s)
	}
}

func TestVerifyRefusedKeepsOldKey(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	f := &flowtest.Faulty{Client: c, Event: &apiclient.DSNCheck{StatusCode: 403, Message: "denied"}}
	r, _, err := steps(t, f, NewRotation(apiclient.ProjectID(5), RotationOptions{Verify: true}), true, true)
	var refused *testevent.RefusedError
	if !errors.As(err, &refused) || len(f.Deletes) != 0 || !r.Kept() {
		t.Fatal(err, f.Deletes)
	}
	if s := r.Failure(flowtest.ExplainPlain, testChecks); !strings.Contains(s, "the old key is not deleted") {
		t.Fatal(s)
	}
}

func TestDeleteUnknownIsWordedUnknown(t *testing.T) {
	r := Rotation{Old: apiclient.ClientKey{ID: 1}, New: &apiclient.ClientKey{ID: 4}, Listed: true, DeleteUnknown: true}
	if s := r.State(testChecks); !strings.Contains(s, "may or may not have been deleted") || !strings.Contains(s, testChecks.Keys) {
		t.Fatal(s)
	}
}

func TestStepsOutOfOrderAreRefused(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	r := NewRotation(apiclient.ProjectID(5), RotationOptions{Confirmed: true})
	if _, err := r.Run(context.Background(), c, StepDelete); err == nil {
		t.Fatal("delete ran before the plan")
	}
	r, _ = r.Run(context.Background(), c, StepPlan)
	r, _ = r.Run(context.Background(), c, StepCreate)
	if _, err := r.Run(context.Background(), c, StepDelete); err == nil {
		t.Fatal("delete ran before the check")
	}
}

func TestPlanDeletionNamesVariables(t *testing.T) {
	_, c := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	d, err := planDeletion(ctx, c, apiclient.ProjectID(1), 1, false)
	if err != nil || !strings.Contains(d.Warning(), "CI/CD variable SENTRY_DSN (all environments) holds this key's DSN") {
		t.Fatal(d.Warning(), err)
	}
	if d, err = planDeletion(ctx, c, apiclient.ProjectID(1), 2, false); err != nil || d.Warning() != "" {
		t.Fatal(d.Warning(), err)
	}
	var ns *NoSuchKeyError
	if _, err = planDeletion(ctx, c, apiclient.ProjectID(1), 99, false); !errors.As(err, &ns) {
		t.Fatal(err)
	}
	f := &flowtest.Faulty{Client: c, ListVars: flowtest.Lost}
	if d, err = planDeletion(ctx, f, apiclient.ProjectID(1), 1, false); err != nil || !strings.Contains(d.Warning(), "could not be read") {
		t.Fatal(d.Warning(), err)
	}
}

// Words: the failed step is capitalized and ends a sentence; a scope left
// empty reads as all environments; a missing named variable is created for
// all environments.
func TestRotationWords(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	f := &flowtest.Faulty{Client: c, Update: &apiclient.APIError{StatusCode: 400, Kind: apiclient.ErrValidation, Message: "value is invalid"}}
	r, _, _ := steps(t, f, NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1}), true, true)
	s := r.Failure(flowtest.ExplainPlain, testChecks)
	if !strings.HasPrefix(s, "Updating the CI/CD variable SENTRY_DSN") || !strings.Contains(s, "value is invalid. Set it") {
		t.Fatal(s)
	}
	if l := (VariableTarget{Key: "K", Scope: ""}).Label(); l != "K (all environments)" {
		t.Fatal(l)
	}
	p, _ := planVariables(nil, "http://k@h/1", "NEW_DSN", "")
	if len(p.targets) != 1 || p.targets[0].Scope != "*" || p.targets[0].Exists {
		t.Fatalf("%+v", p.targets)
	}
	if e := (&testevent.RefusedError{Check: &apiclient.DSNCheck{StatusCode: 401}}).Error(); strings.Contains(e, ":") {
		t.Fatal(e)
	}
	if wording.Sentence("") != "" || wording.Sentence("done") != "done." || wording.Sentence("done?") != "done?" || wording.Capitalize("") != "" {
		t.Fatal("sentence or capitalize")
	}
}

// A delete whose first answer was lost, retried and found gone, is done,
// and said so.
func TestDeletedOnRetry(t *testing.T) {
	_, c := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
	r, _ := NewRotation(apiclient.ProjectID(5), RotationOptions{Confirmed: true}).Advance(context.Background(), goneOnRetry{c}, nil)
	if !r.Deleted || !r.DeletedOnRetry || !strings.Contains(r.State(testChecks), "the first delete went through") {
		t.Fatal(r.State(testChecks))
	}
	r, _ = NewRotation(apiclient.ProjectID(5), RotationOptions{Confirmed: true}).Advance(context.Background(), c, nil)
	if !r.Deleted || r.DeletedOnRetry {
		t.Fatal(r.State(testChecks))
	}
}

type goneOnRetry struct{ *apiclient.Client }

func (g goneOnRetry) DeleteClientKey(ctx context.Context, p apiclient.ProjectRef, id int64) (*apiclient.ClientKey, *apiclient.Response, error) {
	k, resp, err := g.Client.DeleteClientKey(ctx, p, id)
	if resp != nil {
		resp.AlreadyGone = true
	}
	return k, resp, err
}
