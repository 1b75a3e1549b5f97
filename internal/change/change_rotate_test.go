package change

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/rotation"
)

// The group rotation is the rotation plan per project: it rotates the key
// SENTRY_DSN holds where it holds one, and skips, with the reason, the
// projects without it and those the user does not maintain.
func TestGroupRotation(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	l, _ := testLedger(t)
	// The user is no Owner of the groups, whose variables answer 403: the
	// user said to rotate anyway.
	k := rotateSentryDSN(l)
	k.DeleteWithUnreadGroups = true
	p := plan(t, c, flowtest.DemoGroup(t), true, k)
	items := byPath(p)
	if p.Acting() != 2 || items["demo/web-shop"].rotation().Old.ID != 1 || items["demo/mobile/ios"].rotation().Old.ID != 901 {
		t.Fatalf("%+v", p.Items)
	}
	if s := items["demo/mobile/kiosk"].Skip; !strings.Contains(s, "not a Maintainer") {
		t.Fatal(s)
	}
	if s := items["demo/mobile/android"].Skip; !strings.Contains(s, "no CI/CD variable SENTRY_DSN") {
		t.Fatal(s)
	}
	if srv.KeyCount(1) != 2 || srv.KeyCount(7) != 1 {
		t.Fatal("the plan changed something")
	}
	done := runPlan(t, context.Background(), p, c, nil)
	if done.Failed() != 0 || done.Count(ResultChanged) != 2 {
		t.Fatalf("%+v", done.Items)
	}
	for _, id := range []int64{1, 7} {
		keys := srv.Keys(id)
		if v := flowtest.VariableValue(srv, id, "SENTRY_DSN", "*"); !strings.Contains(v, keys[len(keys)-1].PublicKey) {
			t.Fatalf("project %d: SENTRY_DSN %q does not hold the new key", id, v)
		}
	}
	if srv.KeyCount(7) != 1 || srv.Keys(7)[0].ID == 901 {
		t.Fatalf("project 7 keys %v", srv.Keys(7))
	}
	// The ledger holds both rotations, finished, by user and front end,
	// and the group rotation finished with them.
	recs := l.Store().Records(func(r ledger.Record) bool { return r.Kind == ledger.KindRotation })
	if len(recs) != 2 || recs[0].Phase != ledger.PhaseDone || recs[0].User != "tester" || recs[0].FrontEnd != rotation.FrontEndGroupCommand || recs[0].Campaign == "" {
		t.Fatalf("%+v", recs)
	}
	if c := l.Store().Records(func(r ledger.Record) bool { return r.Kind == ledger.KindCampaign }); len(c) != 1 || c[0].Phase != ledger.CampaignFinished {
		t.Fatalf("%+v", c)
	}
}

// The mock's fleet group: each project is rotated, and its variable then
// holds its new key. The first app's old DSN is also in the group's
// FLEET_SENTRY_DSN, which errtrack does not change: the plan shows that
// stop and makes no key there, unless --keep-variables.
func TestFleetGroupRotation(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{ScaleGroup: 5}, mockserver.TokenMaintainer)
	l, _ := testLedger(t)
	p := plan(t, c, flowtest.Fleet(), false, rotateSentryDSN(l))
	var groups *rotation.GroupVariablesError
	if first := byPath(p)["fleet/app-001"]; first.Acts() || first.Result != ResultFailed || !errors.As(first.Err, &groups) || !strings.Contains(first.Skip, "FLEET_SENTRY_DSN") {
		t.Fatalf("the plan hides a stop it can see: %+v", first)
	}
	runPlan(t, context.Background(), p, c, nil)
	if srv.KeyCount(2001) != 1 || srv.Keys(2001)[0].ID != 200001 {
		t.Fatalf("a key was made where the plan stopped: %v", srv.Keys(2001))
	}
	srv, c = flowtest.Mock(t, mockserver.Options{ScaleGroup: 5}, mockserver.TokenMaintainer)
	l, _ = testLedger(t)
	done := runPlan(t, context.Background(), plan(t, c, flowtest.Fleet(), false, keep(l)), c, nil)
	for _, it := range done.Items {
		keys := srv.Keys(it.Project.ID)
		if it.Result != ResultChanged || len(keys) != 1 || keys[0].ID == it.rotation().Old.ID {
			t.Fatalf("%s: %s %+v", it.Project.Path, it.Words, keys)
		}
		if v := flowtest.VariableValue(srv, it.Project.ID, "SENTRY_DSN", ""); !strings.Contains(v, keys[0].PublicKey) {
			t.Fatalf("%s: SENTRY_DSN does not hold key %d", it.Project.Path, keys[0].ID)
		}
	}
}

// Under a GitLab-like rate limit (20 requests a minute) a group rotation of
// five projects completes with no failure: the host's pace waits out each
// reset. Time is virtual: the client's sleep moves the mock server's clock.
func TestGroupRotationUnderRateLimit(t *testing.T) {
	var mu sync.Mutex
	clock := time.Now()
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	sleep := func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		clock = clock.Add(d)
		mu.Unlock()
		return ctx.Err()
	}
	srv, err := mockserver.New(mockserver.Options{ScaleGroup: 5, RateLimit: 20, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c, err := apiclient.New(ts.URL, mockserver.TokenMaintainer, apiclienttest.WithClock(now, sleep))
	if err != nil {
		t.Fatal(err)
	}
	l, _ := testLedger(t)
	done := runPlan(t, context.Background(), plan(t, c, flowtest.Fleet(), false, keep(l)), c, nil)
	if done.Failed() != 0 {
		for _, it := range done.Items {
			t.Logf("%s: %s %s", it.Project.Path, it.Result, it.Words)
		}
		t.Fatal("a project failed under the rate limit")
	}
	if srv.KeyCount(2003) != 1 {
		t.Fatalf("keys %v", srv.Keys(2003))
	}
}

// A group rotation of one variable makes at most 7 requests per project
// (the plan's keys and variables, the create, the listing check, the
// variable's re-read and update, the delete), and reads each group's
// variables once.
func TestGroupRotationRequestsPerProject(t *testing.T) {
	_, c, _, log := flowtest.MockCounting(t, mockserver.Options{ScaleGroup: 20})
	l, _ := testLedger(t)
	done := runPlan(t, context.Background(), plan(t, c, flowtest.Fleet(), false, keep(l)), c, nil)
	if done.Count(ResultChanged) != 20 {
		t.Fatalf("%+v", done.Items)
	}
	perProject := log.Count(func(r string) bool { return strings.Contains(r, "/projects/") && !strings.HasSuffix(r, "/user") })
	if perProject > 7*20 {
		t.Fatalf("%d project requests for 20 projects: more than 7 each", perProject)
	}
	if n := log.Count(func(r string) bool { return strings.HasPrefix(r, "GET /api/v4/groups/fleet/variables") }); n != 1 {
		t.Fatalf("the group's variables were read %d times", n)
	}
}

// A group rotation rotates a Sentry-backed project's key in its Sentry,
// beside the integrated projects' keys in GitLab: each with its backend.
func TestGroupRotationWithASentryBackedProject(t *testing.T) {
	var ss *mocksentry.Server
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ss.ServeHTTP(w, r) }))
	t.Cleanup(ts.Close)
	ss = mocksentry.New(mocksentry.Options{PublicURL: ts.URL})
	gsrv, gl := flowtest.MockOwner(t, mockserver.Options{SentryURL: ts.URL, SentryDSN: ss.DSN("demo", "legacy-api", "Production")}, mockserver.TokenMaintainer)
	sc, err := sentry.New(ts.URL, mocksentry.TokenAdmin)
	if err != nil {
		t.Fatal(err)
	}
	resolve := func(_ context.Context, apiURL string) (keystore.KeyStore, error) {
		p, err := sentry.ParseAPIURL(apiURL)
		return keystore.SentryKeys(sc, p), err
	}
	l, _ := testLedger(t)
	k := RotateChange{Variable: "SENTRY_DSN", Ledger: l, Resolve: resolve}
	p := plan(t, gl, flowtest.DemoGroup(t), true, k)
	if it := byPath(p)["demo/legacy-api"]; !it.Acts() || !strings.Contains(it.Action, `rotate key "Production"`) {
		t.Fatalf("%+v", it)
	}
	done := runPlan(t, context.Background(), p, gl, nil)
	if done.Failed() != 0 || done.Count(ResultChanged) != 3 {
		t.Fatalf("%+v", done.Items)
	}
	keys := ss.Keys("demo", "legacy-api")
	var prod, fresh bool
	for _, key := range keys {
		prod = prod || key.Label == "Production"
		fresh = fresh || strings.Contains(flowtest.VariableValue(gsrv, 3, "SENTRY_DSN", ""), key.Public)
	}
	if prod || !fresh || len(keys) != 2 {
		t.Fatalf("Sentry keys %+v, SENTRY_DSN %q", keys, flowtest.VariableValue(gsrv, 3, "SENTRY_DSN", ""))
	}
}

// A Sentry-backed project without the variable is skipped as any project
// without it is: its Sentry is never asked, so a missing Sentry token
// fails nothing.
func TestGroupRotationAsksNoSentryWithoutTheVariable(t *testing.T) {
	_, gl := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
	asked := 0
	resolve := func(context.Context, string) (keystore.KeyStore, error) {
		asked++
		return nil, errors.New("no Sentry token")
	}
	l, _ := testLedger(t)
	p := plan(t, gl, flowtest.DemoGroup(t), true, RotateChange{Variable: "SENTRY_DSN", Ledger: l, Resolve: resolve})
	if it := byPath(p)["demo/legacy-api"]; it.Result != ResultSkipped || !strings.Contains(it.Skip, "no CI/CD variable") || asked != 0 || p.Failed() != 0 {
		t.Fatalf("asked %d, %+v", asked, it)
	}
}

// A group rotation leaves a project whose groups' variables could not be
// read alone, naming the group, unless the user said to rotate anyway;
// the plan changes nothing either way.
func TestGroupRotationLeavesAProjectWhoseGroupIsUnread(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	l, _ := testLedger(t)
	before := srv.KeyCount(1)
	p := plan(t, c, flowtest.DemoGroup(t), true, rotateSentryDSN(l))
	it := byPath(p)["demo/web-shop"]
	var unsafe *rotation.UnsafeDeleteError
	if it.Acts() || it.Result != ResultFailed || !errors.As(it.Err, &unsafe) || !strings.Contains(it.Err.Error(), "group demo") {
		t.Fatalf("%+v", it)
	}
	done := runPlan(t, context.Background(), p, c, nil)
	if done.Count(ResultChanged) != 0 || srv.KeyCount(1) != before {
		t.Fatalf("%+v", done.Items)
	}
	k := rotateSentryDSN(l)
	k.DeleteWithUnreadGroups = true
	if it := byPath(plan(t, c, flowtest.DemoGroup(t), true, k))["demo/web-shop"]; !it.Acts() {
		t.Fatalf("%+v", it)
	}
}

// A variable several environment scopes have: the rotation and the test
// events skip the project, saying how to name one in the front end's own
// words (ScopeHow), and without them no other front end's.
func TestAmbiguousVariableInTheFrontEndsWords(t *testing.T) {
	_, c := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
	if _, _, err := c.CreateVariable(context.Background(), apiclient.ProjectID(7), apiclient.NewVariable{Key: "SENTRY_DSN", Value: "x", EnvironmentScope: "staging"}); err != nil {
		t.Fatal(err)
	}
	for how, want := range map[string]string{"": "in different environment scopes", "<its way>": "in different environment scopes: <its way>"} {
		for _, kind := range []Kind{RotateChange{Variable: "SENTRY_DSN", ScopeHow: how}, VerifyChange{Variable: "SENTRY_DSN", ScopeHow: how}} {
			it := byPath(plan(t, c, flowtest.DemoGroup(t), true, kind))["demo/mobile/ios"]
			if it.Acts() || !strings.HasSuffix(it.Skip, want) || strings.Contains(it.Skip, "--") {
				t.Errorf("%T, ScopeHow %q: %+v", kind, how, it)
			}
		}
	}
}
