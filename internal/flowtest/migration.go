package flowtest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/ledger"
)

// MigrationWorld is a mock GitLab, a mock Sentry and a ledger store, for
// a migration to Sentry.
type MigrationWorld struct {
	GitLab       *mockserver.Server
	Client       *apiclient.Client
	Sentry       *mocksentry.Server
	SentryClient *sentry.Client
	Base         string
	// Store is the ledger; LedgerDir where it is, for another process's.
	Store     *ledger.Ledger
	LedgerDir string
	Creates   atomic.Int32 // Sentry projects made
	// RefuseEvents answers every test event 403, as a Sentry refusing
	// the key would.
	RefuseEvents atomic.Bool
}

// NewMigrationWorld is a migration's world: the mock GitLab made with
// opts (none: the demo), a mock Sentry, and an empty ledger.
func NewMigrationWorld(t *testing.T, opts ...mockserver.Options) *MigrationWorld {
	t.Helper()
	w := &MigrationWorld{}
	ts := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.Contains(r.URL.Path, "/teams/") {
			w.Creates.Add(1)
		}
		if w.RefuseEvents.Load() && strings.Contains(r.URL.Path, "/envelope") {
			rw.WriteHeader(http.StatusForbidden)
			return
		}
		w.Sentry.ServeHTTP(rw, r)
	}))
	t.Cleanup(ts.Close)
	w.Base = ts.URL
	w.Sentry = mocksentry.New(mocksentry.Options{PublicURL: ts.URL})
	o := mockserver.Options{}
	if len(opts) > 0 {
		o = opts[0]
	}
	w.GitLab, w.Client = Mock(t, o, mockserver.TokenMaintainer)
	var err error
	if w.SentryClient, err = sentry.New(ts.URL, mocksentry.TokenAdmin); err != nil {
		t.Fatal(err)
	}
	w.LedgerDir = t.TempDir()
	if w.Store, err = ledger.OpenLedger(w.LedgerDir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Store.Close() })
	return w
}
