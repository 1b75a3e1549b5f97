package rotation

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
)

// mockSentry is the mock Sentry on a test server and its demo project
// demo/legacy-api's keys as a KeyStore.
func mockSentry(t *testing.T) (*mocksentry.Server, keystore.KeyStore, *sentry.Client) {
	t.Helper()
	srv := mocksentry.New(mocksentry.Options{})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c, err := sentry.New(ts.URL, mocksentry.TokenAdmin)
	if err != nil {
		t.Fatal(err)
	}
	return srv, keystore.SentryKeys(c, sentry.Project{Base: ts.URL, Org: "demo", Slug: "legacy-api"}), c
}

// A Sentry-backed project's key is rotated with the same plan as an
// integrated one, softly: a named new key, the variable repointed, a test
// event accepted through the new DSN, the old key disabled (its events
// refused) and the rotation open in the ledger; going on with it later
// deletes the old key and closes it.
func TestSoftRotationOfASentryKey(t *testing.T) {
	ssrv, store, sc := mockSentry(t)
	gsrv, gl := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	keys, err := store.All(ctx)
	if err != nil || len(keys) != 2 {
		t.Fatalf("%v: %+v", err, keys)
	}
	var prod apiclient.ClientKey
	for _, k := range keys {
		if k.Name == "Production" {
			prod = k
		}
	}
	legacy := apiclient.ProjectID(3)
	if _, _, err := gl.CreateVariable(ctx, legacy, apiclient.NewVariable{Key: "SENTRY_DSN", Value: prod.DSN, Raw: true, Masked: true}); err != nil {
		t.Fatal(err)
	}
	l, _ := testLedger(t)
	o := RotationOptions{Keys: store, OldRef: prod.PublicKey, NewName: "Production 2026-11", Variable: "SENTRY_DSN",
		Verify: true, Confirmed: true, Soft: true, Ledger: l, GoOn: true}
	r, err := NewRotation(legacy, o).Advance(ctx, gl, nil)
	if err != nil || !r.Disabled || r.Deleted || r.New.Name != "Production 2026-11" {
		t.Fatalf("%v: disabled %v, deleted %v, new %+v", err, r.Disabled, r.Deleted, r.New)
	}
	if v := flowtest.VariableValue(gsrv, 3, "SENTRY_DSN", ""); v != r.New.DSN {
		t.Fatalf("SENTRY_DSN holds %q, want the new DSN", v)
	}
	if ssrv.Events(r.New.PublicKey) != 1 {
		t.Fatal("the test event did not arrive through the new DSN")
	}
	if check, _ := sc.SendTestEvent(ctx, prod.DSN, "after"); check == nil || check.Accepted {
		t.Fatal("the disabled old key still takes events")
	}
	if s := r.State(testChecks); !strings.Contains(s, "Rotated softly") {
		t.Fatal(s)
	}
	open := l.OpenRotations(3)
	if len(open) != 1 || open[0].Phase != ledger.PhaseDisabled || open[0].Backend != keystore.BackendSentry || open[0].OldPublic != prod.PublicKey {
		t.Fatalf("%+v", open)
	}
	// Later: the same rotation gone on with deletes the old key.
	later, err := NewRotation(legacy, RotationOptions{Keys: store, OldRef: prod.PublicKey, Confirmed: true, Ledger: l, GoOn: true}).Advance(ctx, gl, nil)
	if err != nil || !later.Deleted || !later.GoingOn() || later.New.PublicKey != r.New.PublicKey {
		t.Fatalf("%v: %+v", err, later)
	}
	if len(l.OpenRotations(3)) != 0 || len(ssrv.Keys("demo", "legacy-api")) != 2 {
		t.Fatalf("open %v, keys %v", l.OpenRotations(3), ssrv.Keys("demo", "legacy-api"))
	}
}

// GitLab's integrated keys cannot be disabled (its store is no
// keystore.Disabler): a soft rotation there is refused before any key is
// made, and keeps the old key.
func TestSoftRotationOfAGitLabKeyRefused(t *testing.T) {
	srv, gl := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	r, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, KeepVariables: true, Confirmed: true, Soft: true}).Advance(context.Background(), gl, nil)
	var soft *SoftUnsupportedError
	if !errors.As(err, &soft) || r.New != nil || r.Disabled || r.Deleted || srv.KeyCount(1) != 2 {
		t.Fatalf("%v: %+v, keys %v", err, r, srv.Keys(1))
	}
}

// A name for the new key of a project whose keys are GitLab's is refused
// before anything changes: GitLab's keys have none.
func TestNameRefusedForGitLabKeys(t *testing.T) {
	srv, gl := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	_, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, NewName: "prod", KeepVariables: true, Confirmed: true}).Advance(context.Background(), gl, nil)
	var unnamed *UnnamedKeysError
	if !errors.As(err, &unnamed) || srv.KeyCount(1) != 2 {
		t.Fatalf("%v, keys %v", err, srv.Keys(1))
	}
}

// lostCreates makes the key but loses the answer.
type lostCreates struct{ keystore.KeyStore }

func (l lostCreates) Create(ctx context.Context, name string) (*apiclient.ClientKey, error) {
	_, _ = l.KeyStore.Create(ctx, name)
	return nil, flowtest.Lost
}

// A Sentry project with more keys than a record keeps by number: a create
// whose answer was lost is found again by its ref, and gone on with; no
// second key is made.
func TestLostSentryCreateFoundAmongManyKeys(t *testing.T) {
	srv := mocksentry.New(mocksentry.Options{ScaleKeys: 150})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	sc, err := sentry.New(ts.URL, mocksentry.TokenAdmin)
	if err != nil {
		t.Fatal(err)
	}
	store := keystore.SentryKeys(sc, sentry.Project{Base: ts.URL, Org: "demo", Slug: "legacy-api"})
	_, gl := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	keys, _ := store.All(ctx)
	old := keys[len(keys)-1]
	l, _ := testLedger(t)
	o := RotationOptions{OldRef: old.PublicKey, KeepVariables: true, Confirmed: true, Ledger: l}
	o.Keys = lostCreates{store}
	if _, err := NewRotation(apiclient.ProjectID(3), o).Advance(ctx, gl, nil); err == nil {
		t.Fatal("a lost create went unnoticed")
	}
	before := len(srv.Keys("demo", "legacy-api"))
	o.Keys, o.GoOn = store, true
	r, err := NewRotation(apiclient.ProjectID(3), o).Advance(ctx, gl, nil)
	if err != nil || r.Earlier == nil || len(srv.Keys("demo", "legacy-api")) != before-1 {
		t.Fatalf("%v: went on %v, %d keys (had %d)", err, r.Earlier != nil, len(srv.Keys("demo", "legacy-api")), before)
	}
}

// A rotation given no name (a group rotation, `rotate` without --name)
// names the new Sentry key by the console's rule, the old key's name with
// today's date, never leaving it to Sentry's random words.
func TestRotationNamesTheNewSentryKeyByTheOneRule(t *testing.T) {
	_, store, _ := mockSentry(t)
	_, gl := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	keys, err := store.All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var prod apiclient.ClientKey
	for _, k := range keys {
		if k.Name == "Production" {
			prod = k
		}
	}
	r, err := NewRotation(apiclient.ProjectID(3), RotationOptions{Keys: store, OldRef: prod.PublicKey, KeepVariables: true, DeleteWithUnreadGroups: true, Confirmed: true}).Advance(ctx, gl, nil)
	if want := keystore.NewKeyName("Production", time.Now()); err != nil || r.New.Name != want {
		t.Fatalf("%v: the new key is named %q, want %q", err, r.New.Name, want)
	}
}

// A rotation of a Sentry key with a rate limit makes the new key with the
// same limit: replacing a key never lifts its cap (a rotation of check
// --fix, or by hand, left the new key unlimited).
func TestRotationKeepsTheSentryKeysRateLimit(t *testing.T) {
	_, store, _ := mockSentry(t)
	_, gl := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	keys, err := store.All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var staging apiclient.ClientKey
	for _, k := range keys {
		if k.Name == "Staging" {
			staging = k
		}
	}
	if staging.RateLimit == nil {
		t.Fatal("the demo's Staging key has no rate limit to keep")
	}
	r, err := NewRotation(apiclient.ProjectID(3), RotationOptions{Keys: store, OldRef: staging.PublicKey, KeepVariables: true, DeleteWithUnreadGroups: true, Confirmed: true}).Advance(ctx, gl, nil)
	if err != nil {
		t.Fatal(err)
	}
	after, err := store.All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range after {
		if k.PublicKey == r.New.PublicKey {
			if k.RateLimit == nil || *k.RateLimit != *staging.RateLimit {
				t.Fatalf("the new key's rate limit is %+v, the old key's was %+v", k.RateLimit, *staging.RateLimit)
			}
			return
		}
	}
	t.Fatalf("the new key %s is not listed", r.New.PublicKey)
}
