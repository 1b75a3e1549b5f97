package migrate

import (
	"context"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
)

// A group change planned and run as the change package's tests do it,
// for the migration's tests.

// testLedger is a fresh ledger in its own state directory; more opens the
// same directory again, as another process would.
func testLedger(t *testing.T) (*rotation.Rotations, func() *rotation.Rotations) {
	t.Helper()
	dir := t.TempDir()
	open := func() *rotation.Rotations {
		store, err := ledger.OpenLedger(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		return rotation.NewRotations(store, flowtest.TestHost, rotation.FrontEndGroupCommand).WithUser("tester")
	}
	return open(), open
}

func byPath(p change.Plan) map[string]change.Item {
	m := map[string]change.Item{}
	for _, it := range p.Items {
		m[it.Project.Path] = it
	}
	return m
}

var testChecks = rotation.Checks{Keys: "check with 'errtrack keys list -p 1'", Variables: "check with 'errtrack api projects/1/variables'"}

func checksFor(projectscope.Project) rotation.Checks { return testChecks }

func runEnv(api change.ChangeAPI) change.RunEnv {
	return change.RunEnv{API: api, Explain: flowtest.ExplainPlain, Checks: checksFor}
}

func plan(t *testing.T, api change.ChangeAPI, ref apiclient.GroupRef, sub bool, kind change.Kind) change.Plan {
	t.Helper()
	p, err := change.PlanGroup(context.Background(), api, ref, sub, kind)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runPlan begins, runs and finishes a plan, as both front ends do.
func runPlan(t *testing.T, ctx context.Context, p change.Plan, api change.ChangeAPI, progress func(change.Event)) change.Plan {
	t.Helper()
	release, err := p.Begin("")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	done := p.Run(ctx, runEnv(api), progress)
	if err := done.Finish(); err != nil {
		t.Fatal(err)
	}
	return done
}
