package rotation

import (
	"context"
	"errors"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
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

// elsewhere is d naming another host, or another project.
func elsewhere(t *testing.T, d string, host bool) string {
	t.Helper()
	if host {
		return flowtest.Respelled(t, d, "collector.attacker.example")
	}
	i := strings.LastIndex(d, "/")
	return d[:i+1] + "99"
}

// A create answer naming another host or project than the key list does
// for the new key stops the rotation: SENTRY_DSN keeps the old DSN and the
// old key stays (GitLab's integrated keys).
func TestRotationStopsOnACreateAnswerNamingElsewhereGitLab(t *testing.T) {
	for _, host := range []bool{true, false} {
		srv, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
		old := flowtest.SentryDSN(t, srv)
		f := &flowtest.Faulty{Client: c, Create: func(k *apiclient.ClientKey) (*apiclient.ClientKey, error) {
			bad := *k
			bad.DSN = elsewhere(t, k.DSN, host)
			return &bad, nil
		}}
		r, _, err := steps(t, f, NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1}), true, true)
		var foreign *ForeignDSNError
		if !errors.As(err, &foreign) || r.Deleted {
			t.Fatalf("host %v: %v, deleted %v", host, err, r.Deleted)
		}
		if got := flowtest.SentryDSN(t, srv); got != old {
			t.Fatalf("host %v: SENTRY_DSN moved to %q", host, got)
		}
		if ids := flowtest.KeyIDs(srv.Keys(1)); !contains(ids, 1) {
			t.Fatalf("host %v: the old key is gone: %v", host, ids)
		}
		if w := r.Failure(flowtest.ExplainPlain, testChecks); !strings.Contains(w, "No variable was pointed at it and the old key is not deleted") {
			t.Fatal(w)
		}
	}
}

func contains(ids []int64, id int64) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// elsewhereSentry answers a create with a DSN naming another host or
// project than Sentry lists for the key.
type elsewhereSentry struct {
	*sentry.Client
	dsn func(string) string
}

func (e elsewhereSentry) CreateKey(ctx context.Context, p sentry.Project, o sentry.CreateKeyOptions) (*sentry.Key, error) {
	k, err := e.Client.CreateKey(ctx, p, o)
	if k != nil {
		k.DSN = e.dsn(k.DSN)
	}
	return k, err
}

// The same for a Sentry-backed project's keys, with --update-variables:
// the variable stays on the old key, and the old key stays.
func TestRotationStopsOnACreateAnswerNamingElsewhereSentry(t *testing.T) {
	for _, host := range []bool{true, false} {
		w := flowtest.NewSentryBacked(t, mocksentry.Options{})
		prod := w.Key(t, "Production")
		w.SetVariable(t, prod.DSN)
		sc := w.SentryClient
		store := keystore.SentryKeys(elsewhereSentry{sc, func(d string) string { return elsewhere(t, d, host) }}, sentry.Project{Base: sc.BaseURL(), Org: "demo", Slug: "legacy-api"})
		o := RotationOptions{Keys: store, OldRef: prod.PublicKey, UpdateVariables: true, Confirmed: true}
		r, err := NewRotation(apiclient.ProjectID(3), o).Advance(context.Background(), w.Client, nil)
		var foreign *ForeignDSNError
		if !errors.As(err, &foreign) || r.Deleted {
			t.Fatalf("host %v: %v, deleted %v", host, err, r.Deleted)
		}
		if v := flowtest.VariableValue(w.GitLab, 3, "SENTRY_DSN", ""); v != prod.DSN {
			t.Fatalf("host %v: SENTRY_DSN moved to %q", host, v)
		}
		w.Key(t, "Production")
	}
}

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

// A rotation whose ancestor groups' variables could not be read (403: a
// project Maintainer is no Owner of the group; 500: GitLab in trouble)
// does not know whether they hold the old DSN: the old key stays unless
// the user, shown the group, says to delete it, or DeleteWithUnreadGroups
// says so beforehand. Never silently.
func TestRotationKeepsTheOldKeyWhileAGroupIsUnread(t *testing.T) {
	ctx := context.Background()
	for _, status := range []int{403, 500} {
		world := func(t *testing.T) (*mockserver.Server, RotationAPI) {
			srv, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
			if status == 403 {
				return srv, c // the demo user is no Owner of group demo
			}
			srv.MakeGroupOwner("demo", 1)
			fail := new(atomic.Bool)
			fail.Store(true)
			return srv, flowtest.UnreadableGroups{Client: c, Fail: fail}
		}
		t.Run("confirmed beforehand", func(t *testing.T) {
			srv, api := world(t)
			r, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Confirmed: true, UpdateVariables: true}).Advance(ctx, api, nil)
			var unsafe *UnsafeDeleteError
			if !errors.As(err, &unsafe) || !slices.Equal(unsafe.UnreadGroups(), []string{"demo"}) || r.Deleted {
				t.Fatalf("%d: %v, deleted %v", status, err, r.Deleted)
			}
			if !strings.Contains(err.Error(), "group demo") || !slices.Contains(flowtest.KeyIDs(srv.Keys(1)), 1) {
				t.Fatalf("%d: %v; keys %v", status, err, flowtest.KeyIDs(srv.Keys(1)))
			}
		})
		t.Run("with DeleteWithUnreadGroups", func(t *testing.T) {
			srv, api := world(t)
			r, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Confirmed: true, UpdateVariables: true, DeleteWithUnreadGroups: true}).Advance(ctx, api, nil)
			if err != nil || !r.Deleted || slices.Contains(flowtest.KeyIDs(srv.Keys(1)), 1) {
				t.Fatalf("%d: %v", status, err)
			}
		})
		t.Run("asked", func(t *testing.T) {
			srv, api := world(t)
			r, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, UpdateVariables: true}).Advance(ctx, api, nil)
			if err != nil || r.Next() != StepConfirmDelete {
				t.Fatalf("%d: %v at %v", status, err, r.Next())
			}
			if w := r.GroupUsesWarning(); !strings.Contains(w, "group demo") {
				t.Fatalf("%d: the question does not name the group: %q", status, w)
			}
			r, err = r.ConfirmDelete(true).Advance(ctx, api, nil)
			if err != nil || !r.Deleted || slices.Contains(flowtest.KeyIDs(srv.Keys(1)), 1) {
				t.Fatalf("%d: %v", status, err)
			}
		})
	}
}
