package audit

// Test helpers, as the workflow's own tests have them: the audit and the
// doctor are tested against the worlds the workflow's changes leave.

import (
	"context"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/migrate"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
)

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

// migrationWorld is the mock GitLab and Sentry of a migration, with its
// ledger as the migration keeps it.
type migrationWorld struct {
	*flowtest.MigrationWorld
	ledger *rotation.Rotations
}

func newMigrationWorld(t *testing.T, opts ...mockserver.Options) *migrationWorld {
	t.Helper()
	w := flowtest.NewMigrationWorld(t, opts...)
	return &migrationWorld{w, rotation.NewRotations(w.Store, flowtest.TestHost, rotation.FrontEndMigrate).WithUser("tester")}
}

func (w *migrationWorld) kind(t *testing.T, sc migrate.MigrateAPI, deleteOld bool) migrate.MigrateChange {
	info, err := w.SentryClient.CheckToken(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return migrate.MigrateChange{Sentry: sc, Base: w.Base, Org: "demo", Create: true, Team: "backend", DeleteOldKeys: deleteOld, Token: info, Ledger: w.ledger,
		Slug: func(p projectscope.Project) string { return strings.ReplaceAll(p.Path, "/", "-") }}
}

// projectOfPath plans kind in the one project at path.
func planOne(t *testing.T, w *migrationWorld, path string, k migrate.MigrateChange) change.Plan {
	t.Helper()
	p, _, err := w.Client.GetProject(context.Background(), apiclient.ProjectRef{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	out, err := change.PlanProjects(context.Background(), w.Client, []apiclient.Project{*p}, k)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

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

type countFails struct {
	*apiclient.Client
	err error
}

func (f countFails) CountClientKeys(context.Context, apiclient.ProjectRef) (int, bool, error) {
	return 0, false, f.err
}
