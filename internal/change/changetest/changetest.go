// Package changetest plans and runs group changes in tests as both front
// ends do, over the shared test setup (internal/flowtest): for the tests of
// the migration and the audit. Test support only. The change package's own
// tests keep their few lines of it: they cannot import what imports change.
package changetest

import (
	"context"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
)

// Checks are how a test's user checks what a lost answer left.
var Checks = rotation.Checks{Keys: "check with 'errtrack keys list -p 1'", Variables: "check with 'errtrack api projects/1/variables'"}

// RunEnv is a run's environment over api, errors in their own words.
func RunEnv(api change.ChangeAPI) change.RunEnv {
	return change.RunEnv{API: api, Explain: flowtest.ExplainPlain, Checks: func(projectscope.Project) rotation.Checks { return Checks }}
}

// Plan plans kind in the group ref (and its subgroups, with sub).
func Plan(t *testing.T, api change.ChangeAPI, ref apiclient.GroupRef, sub bool, kind change.Kind) change.Plan {
	t.Helper()
	p, err := change.PlanGroup(context.Background(), api, ref, sub, kind)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// PlanOne plans kind in the one project at path.
func PlanOne(t *testing.T, c *apiclient.Client, path string, kind change.Kind) change.Plan {
	t.Helper()
	p, _, err := c.GetProject(context.Background(), apiclient.ProjectRef{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	out, err := change.PlanProjects(context.Background(), c, []apiclient.Project{*p}, kind)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// RunPlan begins, runs and finishes a plan, as both front ends do.
func RunPlan(t *testing.T, ctx context.Context, p change.Plan, api change.ChangeAPI, progress func(change.Event)) change.Plan {
	t.Helper()
	release, err := p.Begin("")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	done := p.Run(ctx, RunEnv(api), progress)
	if err := done.Finish(); err != nil {
		t.Fatal(err)
	}
	return done
}

// ByPath is the plan's items by project path.
func ByPath(p change.Plan) map[string]change.Item {
	m := map[string]change.Item{}
	for _, it := range p.Items {
		m[it.Project.Path] = it
	}
	return m
}

// Ledger is a fresh ledger in its own state directory; more opens the
// same directory again, as another process would.
func Ledger(t *testing.T) (*rotation.Rotations, func() *rotation.Rotations) {
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

// MigrationWorld is the mock GitLab and Sentry of a migration, with its
// ledger as the migration keeps it.
type MigrationWorld struct {
	*flowtest.MigrationWorld
	Ledger *rotation.Rotations
}

// NewMigrationWorld is flowtest's migration world with its ledger.
func NewMigrationWorld(t *testing.T, opts ...mockserver.Options) *MigrationWorld {
	t.Helper()
	w := flowtest.NewMigrationWorld(t, opts...)
	return &MigrationWorld{w, rotation.NewRotations(w.Store, flowtest.TestHost, rotation.FrontEndMigrate).WithUser("tester")}
}
