package rotation

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/keystore"
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
