package change

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
)

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

// A variable that takes the old DSN between the plan and the run (minutes
// may pass while the user reads the plan) keeps the old key: the delete
// reads the variables again right before it, and names the variable.
func TestVariableTakingTheDSNSincePlanKeepsTheOldKey(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{ScaleGroup: 2}, mockserver.TokenMaintainer)
	ctx := context.Background()
	l, _ := testLedger(t)
	p := plan(t, c, flowtest.Fleet(), false, rotateSentryDSN(l))
	keys, _, err := c.ListClientKeys(ctx, apiclient.ProjectID(2002))
	if err != nil || len(keys) != 1 {
		t.Fatal(keys, err)
	}
	old := keys[0].DSN
	if _, _, err := c.CreateVariable(ctx, apiclient.ProjectID(2002), apiclient.NewVariable{Key: "OTHER_DSN", Value: old}); err != nil {
		t.Fatal(err)
	}
	it := byPath(runPlan(t, ctx, p, c, nil))["fleet/app-002"]
	var unsafe *rotation.UnsafeDeleteError
	if it.Result != ResultFailed || !errors.As(it.Err, &unsafe) || !strings.Contains(it.Err.Error(), "OTHER_DSN") {
		t.Fatalf("%+v", it)
	}
	if !slices.Contains(flowtest.KeyIDs(srv.Keys(2002)), 200002) {
		t.Fatal("the old key was deleted while OTHER_DSN holds its DSN")
	}
	if v, _, err := c.GetVariable(ctx, apiclient.ProjectID(2002), "OTHER_DSN", ""); err != nil || v.Value == nil || *v.Value != old {
		t.Fatalf("OTHER_DSN was changed: %+v, %v", v, err)
	}
}

// A rotation that reaches the run with a question no one answered (the
// plan stops such a project, so only a plan that missed it) stops there:
// it is never reported changed and its old key stays.
func TestQuestionLeftAtRunStopsTheProject(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{ScaleGroup: 2}, mockserver.TokenMaintainer)
	ctx := context.Background()
	l, _ := testLedger(t)
	keys, _, err := c.ListClientKeys(ctx, apiclient.ProjectID(2002))
	if err != nil || len(keys) != 1 {
		t.Fatal(keys, err)
	}
	old := keys[0].DSN
	vars := []apiclient.Variable{{Key: "SENTRY_DSN", Value: &old, EnvironmentScope: "*"}, {Key: "OTHER_DSN", Value: &old, EnvironmentScope: "*"}}
	proj := projectscope.Project{Ref: apiclient.ProjectID(2002), ID: 2002, Path: "fleet/app-002"}
	r := rotation.NewRotation(proj.Ref, rotation.RotationOptions{OldID: keys[0].ID, Variable: "SENTRY_DSN", Confirmed: true, GoOn: true, Ledger: l})
	r.Project, r.Old = proj, keys[0]
	r, err = r.PlanRead(ctx, c, keys, projectscope.GroupVariables{}, vars)
	if err != nil || !r.VariablesInQuestion() {
		t.Fatalf("no question left: %v", err)
	}
	it := Item{Project: proj, Detail: RotationResult{Old: keys[0], Rotation: &r}}
	it = RotateChange{Variable: "SENTRY_DSN", Ledger: l}.Run(ctx, &RunEnv{API: c, Explain: flowtest.ExplainPlain, Checks: checksFor}, it)
	var others *OtherVariablesError
	if it.Result == ResultChanged || !errors.As(it.Err, &others) {
		t.Fatalf("%+v", it)
	}
	if !slices.Contains(flowtest.KeyIDs(srv.Keys(2002)), 200002) {
		t.Fatal("the old key was deleted with a question left")
	}
}
