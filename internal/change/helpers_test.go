package change

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
)

// testChecks are the words a group change's tests check with, as the
// rotation's do (changetest has them for the packages above change).
var testChecks = rotation.Checks{Keys: "check with 'errtrack keys list -p 1'", Variables: "check with 'errtrack api projects/1/variables'"}

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

func byPath(p Plan) map[string]Item {
	m := map[string]Item{}
	for _, it := range p.Items {
		m[it.Project.Path] = it
	}
	return m
}

func checksFor(projectscope.Project) rotation.Checks { return testChecks }

func runEnv(api ChangeAPI) RunEnv {
	return RunEnv{API: api, Explain: flowtest.ExplainPlain, Checks: checksFor}
}

func plan(t *testing.T, api ChangeAPI, ref apiclient.GroupRef, sub bool, kind Kind) Plan {
	t.Helper()
	p, err := PlanGroup(context.Background(), api, ref, sub, kind)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// runPlan begins, runs and finishes a plan, as both front ends do.
func runPlan(t *testing.T, ctx context.Context, p Plan, api ChangeAPI, progress func(Event)) Plan {
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

func rotateSentryDSN(l *rotation.Rotations) RotateChange {
	return RotateChange{Variable: "SENTRY_DSN", Ledger: l}
}

func keep(l *rotation.Rotations) RotateChange {
	return RotateChange{Variable: "SENTRY_DSN", KeepVariables: true, Ledger: l}
}

func sortedFleet(t *testing.T, c *apiclient.Client) []apiclient.Project {
	projects, _, err := c.ListGroupProjects(context.Background(), flowtest.Fleet(), false)
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(projects, func(a, b apiclient.Project) int { return strings.Compare(a.PathWithNamespace, b.PathWithNamespace) })
	return projects
}

// apiKey is the project's first key as the API shows it (with its DSN).
func apiKey(t *testing.T, c *apiclient.Client, project int64) apiclient.ClientKey {
	t.Helper()
	keys, _, err := c.ListClientKeys(context.Background(), apiclient.ProjectID(project))
	if err != nil || len(keys) == 0 {
		t.Fatalf("%v: %v", err, keys)
	}
	return keys[0]
}

type faultyGroup struct {
	*flowtest.Faulty
	failDelete bool
	// listTwice lists each project twice (pages that moved while read).
	listTwice bool
	// failKeys answers every key listing with a server error.
	failKeys bool
	// refuseUpdate refuses every variable update (403), changing nothing.
	refuseUpdate bool
}

func (f *faultyGroup) UpdateVariableValue(ctx context.Context, p apiclient.ProjectRef, key, scope, value string) (*apiclient.Variable, *apiclient.Response, error) {
	if f.refuseUpdate {
		return nil, nil, &apiclient.APIError{StatusCode: 403, Kind: apiclient.ErrForbidden, Message: "403 Forbidden"}
	}
	return f.Faulty.UpdateVariableValue(ctx, p, key, scope, value)
}

func (f *faultyGroup) DeleteClientKey(ctx context.Context, p apiclient.ProjectRef, id int64) (*apiclient.ClientKey, *apiclient.Response, error) {
	if f.failDelete {
		return nil, nil, flowtest.Lost
	}
	return f.Faulty.DeleteClientKey(ctx, p, id)
}

func (f *faultyGroup) ListGroupProjectsWith(ctx context.Context, g apiclient.GroupRef, o apiclient.GroupProjectsOptions) ([]apiclient.Project, *apiclient.Response, error) {
	ps, resp, err := f.Faulty.ListGroupProjectsWith(ctx, g, o)
	if f.listTwice {
		ps = append(ps, ps...)
	}
	return ps, resp, err
}

func (f *faultyGroup) ListClientKeys(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.ClientKey, *apiclient.Response, error) {
	if f.failKeys {
		return nil, nil, flowtest.Lost
	}
	return f.Faulty.ListClientKeys(ctx, p)
}
