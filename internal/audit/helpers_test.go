package audit

// Test helpers, as the workflow's own tests have them: the audit and the
// doctor are tested against the worlds the workflow's changes leave.

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/migrate"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
)

func explainPlain(err error) string { return err.Error() }

var testChecks = rotation.Checks{Keys: "check with 'errtrack keys list -p 1'", Variables: "check with 'errtrack api projects/1/variables'"}

func mock(t testing.TB, opts mockserver.Options, token string) (*mockserver.Server, *apiclient.Client) {
	t.Helper()
	srv, err := mockserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c, err := apiclient.New(ts.URL, token, apiclient.WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

const testHost = "https://gitlab.test"

func demoGroup(t *testing.T) apiclient.GroupRef {
	g, err := apiclient.ParseGroupRef("demo")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func checksFor(projectscope.Project) rotation.Checks { return testChecks }

func runEnv(api change.ChangeAPI) change.RunEnv {
	return change.RunEnv{API: api, Explain: explainPlain, Checks: checksFor}
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

// sentryBacked is the demo project demo/legacy-api (GitLab project 3)
// reporting to the mock Sentry's demo/legacy-api, with the Sentry's
// options; resolve reaches that Sentry with its admin token.
type sentryBacked struct {
	ss      *mocksentry.Server
	gsrv    *mockserver.Server
	gl      *apiclient.Client
	store   keystore.KeyStore
	sc      *sentry.Client
	resolve keystore.SentryResolver
}

func newSentryBacked(t *testing.T, opts mocksentry.Options) sentryBacked {
	t.Helper()
	return newSentryBackedAs(t, opts, mocksentry.TokenAdmin)
}

// newSentryBackedAs is newSentryBacked with another Sentry token.
func newSentryBackedAs(t *testing.T, opts mocksentry.Options, token string) sentryBacked {
	t.Helper()
	var w sentryBacked
	ts := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) { w.ss.ServeHTTP(rw, r) }))
	t.Cleanup(ts.Close)
	opts.PublicURL = ts.URL
	w.ss = mocksentry.New(opts)
	w.gsrv, w.gl = mock(t, mockserver.Options{SentryURL: ts.URL, SentryDSN: w.ss.DSN("demo", "legacy-api", "Production")}, mockserver.TokenMaintainer)
	sc, err := sentry.New(ts.URL, token)
	if err != nil {
		t.Fatal(err)
	}
	w.sc = sc
	w.store = keystore.SentryKeys(sc, sentry.Project{Base: ts.URL, Org: "demo", Slug: "legacy-api"})
	w.resolve = func(_ context.Context, apiURL string) (keystore.KeyStore, error) {
		p, err := sentry.ParseAPIURL(apiURL)
		return keystore.SentryKeys(sc, p), err
	}
	return w
}

// key is the Sentry project's key named name, as the API lists it.
func (w sentryBacked) key(t *testing.T, name string) apiclient.ClientKey {
	t.Helper()
	keys, err := w.store.All(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if k.Name == name {
			return k
		}
	}
	t.Fatalf("no key %q among %+v", name, keys)
	return apiclient.ClientKey{}
}

// setVariable sets project 3's SENTRY_DSN (created raw and masked).
func (w sentryBacked) setVariable(t *testing.T, value string) {
	t.Helper()
	ctx := context.Background()
	if _, _, err := w.gl.UpdateVariableValue(ctx, apiclient.ProjectID(3), "SENTRY_DSN", "*", value); err != nil {
		if _, _, err := w.gl.CreateVariable(ctx, apiclient.ProjectID(3), apiclient.NewVariable{Key: "SENTRY_DSN", Value: value, Raw: true, Masked: true}); err != nil {
			t.Fatal(err)
		}
	}
}

// migrationWorld is a mock GitLab, a mock Sentry and a ledger.
type migrationWorld struct {
	gl     *mockserver.Server
	c      *apiclient.Client
	ss     *mocksentry.Server
	sc     *sentry.Client
	base   string
	ledger *rotation.Rotations
	// ledgerDir is where the ledger is, for another process's.
	ledgerDir string
	creates   atomic.Int32 // Sentry projects made
	// refuseEvents answers every test event 403, as a Sentry refusing
	// the key would.
	refuseEvents atomic.Bool
}

func newMigrationWorld(t *testing.T, opts ...mockserver.Options) *migrationWorld {
	t.Helper()
	w := &migrationWorld{}
	ts := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.Contains(r.URL.Path, "/teams/") {
			w.creates.Add(1)
		}
		if w.refuseEvents.Load() && strings.Contains(r.URL.Path, "/envelope") {
			rw.WriteHeader(http.StatusForbidden)
			return
		}
		w.ss.ServeHTTP(rw, r)
	}))
	t.Cleanup(ts.Close)
	w.base = ts.URL
	w.ss = mocksentry.New(mocksentry.Options{PublicURL: ts.URL})
	o := mockserver.Options{}
	if len(opts) > 0 {
		o = opts[0]
	}
	w.gl, w.c = mock(t, o, mockserver.TokenMaintainer)
	var err error
	if w.sc, err = sentry.New(ts.URL, mocksentry.TokenAdmin); err != nil {
		t.Fatal(err)
	}
	w.ledgerDir = t.TempDir()
	store, err := ledger.OpenLedger(w.ledgerDir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	w.ledger = rotation.NewRotations(store, testHost, rotation.FrontEndMigrate).WithUser("tester")
	return w
}

func (w *migrationWorld) kind(t *testing.T, sc migrate.MigrateAPI, deleteOld bool) migrate.MigrateChange {
	info, err := w.sc.CheckToken(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return migrate.MigrateChange{Sentry: sc, Base: w.base, Org: "demo", Create: true, Team: "backend", DeleteOldKeys: deleteOld, Token: info, Ledger: w.ledger,
		Slug: func(p projectscope.Project) string { return strings.ReplaceAll(p.Path, "/", "-") }}
}

// projectOfPath plans kind in the one project at path.
func planOne(t *testing.T, w *migrationWorld, path string, k migrate.MigrateChange) change.Plan {
	t.Helper()
	p, _, err := w.c.GetProject(context.Background(), apiclient.ProjectRef{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	out, err := change.PlanProjects(context.Background(), w.c, []apiclient.Project{*p}, k)
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
		return rotation.NewRotations(store, testHost, rotation.FrontEndGroupCommand).WithUser("tester")
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

func variableValue(srv *mockserver.Server, project int64, key, scope string) string {
	for _, v := range srv.Variables(project) {
		if v.Key == key && (scope == "" || v.EnvironmentScope == scope) {
			return v.Value
		}
	}
	return ""
}

// respelled is d with its host replaced.
func respelled(t *testing.T, d, host string) string {
	t.Helper()
	at, slash := strings.Index(d, "@"), strings.LastIndex(d, "/")
	if at < 0 || slash < at {
		t.Fatalf("%q is no DSN", d)
	}
	return "https://" + d[strings.Index(d, "://")+3:at] + "@" + host + d[slash:]
}

type countFails struct {
	*apiclient.Client
	err error
}

// wave holds every request until want of them have arrived: requests sent
// together pass at once; a request that waits for another's answer holds
// its wave for the whole patience and is marked late. It proves a flow's
// requests go out in one round trip without timing it.
type wave struct {
	next    http.Handler
	want    int
	mu      sync.Mutex
	seen    []string
	arrived chan struct{}
	late    bool
}

func newWave(next http.Handler, want int) *wave {
	return &wave{next: next, want: want, arrived: make(chan struct{})}
}

func (w *wave) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	w.mu.Lock()
	w.seen = append(w.seen, r.Method+" "+r.URL.Path)
	if len(w.seen) == w.want {
		close(w.arrived)
	}
	w.mu.Unlock()
	select {
	case <-w.arrived:
	case <-time.After(2 * time.Second):
		w.mu.Lock()
		w.late = true
		w.mu.Unlock()
	}
	w.next.ServeHTTP(rw, r)
}

// check fails unless exactly want requests came, all in one wave.
func (w *wave) check(t *testing.T) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	sort.Strings(w.seen)
	if w.late || len(w.seen) != w.want {
		t.Fatalf("not one round trip of %d requests (late %v):\n%s", w.want, w.late, strings.Join(w.seen, "\n"))
	}
}

func waveClient(t *testing.T, want int) (*wave, *apiclient.Client, *mockserver.Server) {
	t.Helper()
	srv, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := newWave(srv, want)
	ts := httptest.NewServer(w)
	t.Cleanup(ts.Close)
	c, err := apiclient.New(ts.URL, mockserver.TokenMaintainer, apiclient.WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return w, c, srv
}

func (f countFails) CountClientKeys(context.Context, apiclient.ProjectRef) (int, bool, error) {
	return 0, false, f.err
}
