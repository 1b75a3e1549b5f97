// Package flowtest is the test setup the tests of the rotation, the group
// changes, the migration and the audit share: mock worlds (a GitLab, a
// Sentry-backed project), API clients that fail on purpose, and checks of
// what the mock holds. Test support only: no production code imports it.
package flowtest

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
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/keystore"
)

// Faulty is the mock server's client with one answer replaced, to inject
// what a real server or proxy may do.
type Faulty struct {
	*apiclient.Client
	Create   func(*apiclient.ClientKey) (*apiclient.ClientKey, error)
	List     func([]apiclient.ClientKey) []apiclient.ClientKey
	ListVars error
	Update   error
	Event    *apiclient.DSNCheck
	Deletes  []int64
	mu       sync.Mutex // deletes: a group run deletes in several goroutines
}

func (f *Faulty) CreateClientKey(ctx context.Context, p apiclient.ProjectRef) (*apiclient.ClientKey, *apiclient.Response, error) {
	k, resp, err := f.Client.CreateClientKey(ctx, p)
	if err == nil && f.Create != nil {
		k, err = f.Create(k)
	}
	return k, resp, err
}

func (f *Faulty) ListClientKeys(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.ClientKey, *apiclient.Response, error) {
	keys, resp, err := f.Client.ListClientKeys(ctx, p)
	if err == nil && f.List != nil {
		keys = f.List(keys)
	}
	return keys, resp, err
}

func (f *Faulty) ListClientKeysFrom(ctx context.Context, p apiclient.ProjectRef, page int) ([]apiclient.ClientKey, *apiclient.Response, error) {
	keys, resp, err := f.Client.ListClientKeysFrom(ctx, p, page)
	if err == nil && f.List != nil {
		keys = f.List(keys)
	}
	return keys, resp, err
}

func (f *Faulty) ListVariables(ctx context.Context, p apiclient.ProjectRef) ([]apiclient.Variable, *apiclient.Response, error) {
	if f.ListVars != nil {
		return nil, nil, f.ListVars
	}
	return f.Client.ListVariables(ctx, p)
}

func (f *Faulty) UpdateVariableValue(ctx context.Context, p apiclient.ProjectRef, key, scope, value string) (*apiclient.Variable, *apiclient.Response, error) {
	v, resp, err := f.Client.UpdateVariableValue(ctx, p, key, scope, value)
	if f.Update != nil {
		return nil, resp, f.Update
	}
	return v, resp, err
}

func (f *Faulty) DeleteClientKey(ctx context.Context, p apiclient.ProjectRef, id int64) (*apiclient.ClientKey, *apiclient.Response, error) {
	f.mu.Lock()
	f.Deletes = append(f.Deletes, id)
	f.mu.Unlock()
	return f.Client.DeleteClientKey(ctx, p, id)
}

func (f *Faulty) SendTestEvent(ctx context.Context, dsn, message string) (*apiclient.DSNCheck, error) {
	if f.Event != nil {
		return f.Event, nil
	}
	return f.Client.SendTestEvent(ctx, dsn, message)
}

var Lost = &apiclient.APIError{StatusCode: 500, Method: "PUT", Path: "x", Kind: apiclient.ErrServer, Message: "500 Internal Server Error"}

func ExplainPlain(err error) string { return err.Error() }

func KeyIDs(keys []mockserver.ClientKey) []int64 {
	var ids []int64
	for _, k := range keys {
		ids = append(ids, k.ID)
	}
	return ids
}

func SentryDSN(t *testing.T, srv *mockserver.Server) string {
	t.Helper()
	for _, v := range srv.Variables(1) {
		if v.Key == "SENTRY_DSN" {
			return v.Value
		}
	}
	t.Fatal("no SENTRY_DSN")
	return ""
}

func Mock(t testing.TB, opts mockserver.Options, token string) (*mockserver.Server, *apiclient.Client) {
	t.Helper()
	srv, err := mockserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c, err := apiclient.New(ts.URL, token, apiclienttest.WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

// MockOwner is mock with the token's user the demo group's Owner, who
// reads its groups' variables: a rotation then knows what they hold.
func MockOwner(t testing.TB, opts mockserver.Options, token string) (*mockserver.Server, *apiclient.Client) {
	t.Helper()
	srv, c := Mock(t, opts, token)
	srv.MakeGroupOwner("demo", 1)
	return srv, c
}

type MemStore map[string]string

func (m MemStore) Set(_ context.Context, host, token string) error { m[host] = token; return nil }

const TestHost = "https://gitlab.test"

func DemoGroup(t *testing.T) apiclient.GroupRef {
	g, err := apiclient.ParseGroupRef("demo")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func Fleet() apiclient.GroupRef { return apiclient.GroupRef{Path: "fleet"} }

func VariableValue(srv *mockserver.Server, project int64, key, scope string) string {
	for _, v := range srv.Variables(project) {
		if v.Key == key && (scope == "" || v.EnvironmentScope == scope) {
			return v.Value
		}
	}
	return ""
}

// MockCounting is the mock server behind a handler counting the requests
// (method and path) and the client keys it created.
func MockCounting(t *testing.T, opts mockserver.Options) (*mockserver.Server, *apiclient.Client, *atomic.Int64, *RequestLog) {
	t.Helper()
	srv, err := mockserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	log := &RequestLog{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := &statusRecorder{ResponseWriter: w}
		srv.ServeHTTP(rec, r)
		log.add(r.Method + " " + r.URL.Path)
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/client_keys") && rec.status == http.StatusCreated {
			n.Add(1)
		}
	}))
	t.Cleanup(ts.Close)
	c, err := apiclient.New(ts.URL, mockserver.TokenMaintainer, apiclienttest.WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return srv, c, &n, log
}

type RequestLog struct {
	mu   sync.Mutex
	reqs []string
}

func (l *RequestLog) add(s string) { l.mu.Lock(); l.reqs = append(l.reqs, s); l.mu.Unlock() }

func (l *RequestLog) Count(match func(string) bool) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, r := range l.reqs {
		if match(r) {
			n++
		}
	}
	return n
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(code int) {
	r.status = code
	r.ResponseWriter.WriteHeader(code)
}

func PublicKeyOf(srv *mockserver.Server, project, id int64) string {
	for _, k := range srv.Keys(project) {
		if k.ID == id {
			return k.PublicKey
		}
	}
	return "\x00none"
}

// UnreadableGroups answers a group's variables 500 once fail is set, as a
// GitLab in trouble would.
type UnreadableGroups struct {
	*apiclient.Client
	Fail *atomic.Bool
}

func (u UnreadableGroups) ListGroupVariables(ctx context.Context, g apiclient.GroupRef) ([]apiclient.Variable, *apiclient.Response, error) {
	if u.Fail.Load() {
		return nil, nil, &apiclient.APIError{Method: http.MethodGet, Path: "/groups/" + g.Path + "/variables", StatusCode: 500, Kind: apiclient.ErrServer, Message: "500 Internal Server Error"}
	}
	return u.Client.ListGroupVariables(ctx, g)
}

// SentryBacked is the demo project demo/legacy-api (GitLab project 3)
// reporting to the mock Sentry's demo/legacy-api, with the Sentry's
// options; resolve reaches that Sentry with its admin token.
type SentryBacked struct {
	Sentry       *mocksentry.Server
	GitLab       *mockserver.Server
	Client       *apiclient.Client
	Store        keystore.KeyStore
	SentryClient *sentry.Client
	Resolve      keystore.SentryResolver
}

func NewSentryBacked(t *testing.T, opts mocksentry.Options) SentryBacked {
	t.Helper()
	return NewSentryBackedAs(t, opts, mocksentry.TokenAdmin)
}

// NewSentryBackedAs is newSentryBacked with another Sentry token.
func NewSentryBackedAs(t *testing.T, opts mocksentry.Options, token string) SentryBacked {
	t.Helper()
	var w SentryBacked
	ts := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) { w.Sentry.ServeHTTP(rw, r) }))
	t.Cleanup(ts.Close)
	opts.PublicURL = ts.URL
	w.Sentry = mocksentry.New(opts)
	w.GitLab, w.Client = Mock(t, mockserver.Options{SentryURL: ts.URL, SentryDSN: w.Sentry.DSN("demo", "legacy-api", "Production")}, mockserver.TokenMaintainer)
	sc, err := sentry.New(ts.URL, token)
	if err != nil {
		t.Fatal(err)
	}
	w.SentryClient = sc
	w.Store = keystore.SentryKeys(sc, sentry.Project{Base: ts.URL, Org: "demo", Slug: "legacy-api"})
	w.Resolve = func(_ context.Context, apiURL string) (keystore.KeyStore, error) {
		p, err := sentry.ParseAPIURL(apiURL)
		return keystore.SentryKeys(sc, p), err
	}
	return w
}

// Key is the Sentry project's key named name, as the API lists it.
func (w SentryBacked) Key(t *testing.T, name string) apiclient.ClientKey {
	t.Helper()
	keys, err := w.Store.All(context.Background())
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

// SetVariable sets project 3's SENTRY_DSN (created raw and masked).
func (w SentryBacked) SetVariable(t *testing.T, value string) {
	t.Helper()
	ctx := context.Background()
	if _, _, err := w.Client.UpdateVariableValue(ctx, apiclient.ProjectID(3), "SENTRY_DSN", "*", value); err != nil {
		if _, _, err := w.Client.CreateVariable(ctx, apiclient.ProjectID(3), apiclient.NewVariable{Key: "SENTRY_DSN", Value: value, Raw: true, Masked: true}); err != nil {
			t.Fatal(err)
		}
	}
}

// Respelled is d with its host replaced.
func Respelled(t *testing.T, d, host string) string {
	t.Helper()
	at, slash := strings.Index(d, "@"), strings.LastIndex(d, "/")
	if at < 0 || slash < at {
		t.Fatalf("%q is no DSN", d)
	}
	return "https://" + d[strings.Index(d, "://")+3:at] + "@" + host + d[slash:]
}

// Wave holds every request until want of them have arrived: requests sent
// together pass at once; a request that waits for another's answer holds
// its wave for the whole patience and is marked late. It proves a flow's
// requests go out in one round trip without timing it.
type Wave struct {
	next    http.Handler
	want    int
	mu      sync.Mutex
	seen    []string
	arrived chan struct{}
	late    bool
}

func NewWave(next http.Handler, want int) *Wave {
	return &Wave{next: next, want: want, arrived: make(chan struct{})}
}

func (w *Wave) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
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

// Check fails unless exactly want requests came, all in one wave.
func (w *Wave) Check(t *testing.T) {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	sort.Strings(w.seen)
	if w.late || len(w.seen) != w.want {
		t.Fatalf("not one round trip of %d requests (late %v):\n%s", w.want, w.late, strings.Join(w.seen, "\n"))
	}
}

func WaveClient(t *testing.T, want int) (*Wave, *apiclient.Client, *mockserver.Server) {
	t.Helper()
	srv, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := NewWave(srv, want)
	ts := httptest.NewServer(w)
	t.Cleanup(ts.Close)
	c, err := apiclient.New(ts.URL, mockserver.TokenMaintainer, apiclienttest.WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return w, c, srv
}

// Latency is the mock server's delay per request: elapsed time divided by it
// is the number of round trips a workflow waits for.
const Latency = 200 * time.Millisecond
