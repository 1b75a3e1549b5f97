package audit

// The audit and the doctor are tested against the worlds the changes
// leave: the setup is internal/flowtest's and changetest's; here only the
// migration the tests make, and a key count that fails.

import (
	"context"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/change/changetest"
	"github.com/errtrack/errtrack/internal/migrate"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// migrationWorld is changetest's, where the tests make their migrations.
type migrationWorld struct{ *changetest.MigrationWorld }

func newMigrationWorld(t *testing.T, opts ...mockserver.Options) *migrationWorld {
	t.Helper()
	return &migrationWorld{changetest.NewMigrationWorld(t, opts...)}
}

func (w *migrationWorld) kind(t *testing.T, sc migrate.MigrateAPI, deleteOld bool) migrate.MigrateChange {
	info, err := w.SentryClient.CheckToken(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return migrate.MigrateChange{Sentry: sc, Base: w.Base, Org: "demo", Create: true, Team: "backend", DeleteOldKeys: deleteOld, Token: info, Ledger: w.Ledger,
		Slug: func(p projectscope.Project) string { return strings.ReplaceAll(p.Path, "/", "-") }}
}

type countFails struct {
	*apiclient.Client
	err error
}

func (f countFails) CountClientKeys(context.Context, apiclient.ProjectRef) (int, bool, error) {
	return 0, false, f.err
}
