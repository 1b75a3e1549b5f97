package rotation

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
)

// The state directory lost (a full disk, a removed folder) between the
// create and its record: the key was created, and the words say so, with
// both keys in place, never "creating the new key failed".
func TestLedgerLostAfterTheCreateIsWordedAsCreated(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	dir := t.TempDir() + "/state"
	store, err := ledger.OpenLedger(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	l := NewRotations(store, flowtest.TestHost, FrontEndCommand).WithUser("tester")
	f := &flowtest.Faulty{Client: c, Create: func(k *apiclient.ClientKey) (*apiclient.ClientKey, error) {
		// The state directory is gone once the create is answered.
		if err := os.RemoveAll(dir); err != nil {
			return nil, err
		}
		return k, os.WriteFile(dir, nil, 0o600)
	}}
	r, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Confirmed: true, Ledger: l}).Advance(context.Background(), f, nil)
	if err == nil || r.New == nil {
		t.Fatalf("%v, new %+v", err, r.New)
	}
	w := r.Failure(flowtest.ExplainPlain, testChecks)
	for _, want := range []string{"was created", "Both keys exist", keystore.KeyName(*r.New)} {
		if !strings.Contains(w, want) {
			t.Fatalf("%q lacks %q", w, want)
		}
	}
	if strings.Contains(w, "failed, so nothing was changed") {
		t.Fatalf("the words deny the create: %s", w)
	}
}

// The new key of an open rotation deleted in GitLab's UI: going on with it
// stops at the check, keeps the old key, and says how to restart (the
// front end's own --restart), never "run the same command again".
func TestGoingOnWithAGoneNewKeyOffersRestart(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	l, _ := testLedger(t)
	kept, _ := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, KeepVariables: true, Ledger: l}).Advance(ctx, c, nil)
	_ = kept.ConfirmDelete(false)
	if _, _, err := c.DeleteClientKey(ctx, apiclient.ProjectID(1), kept.New.ID); err != nil {
		t.Fatal(err)
	}
	again, err := NewRotation(apiclient.ProjectID(1), RotationOptions{OldID: 1, Ledger: l, GoOn: true, Confirmed: true, KeepVariables: true}).Advance(ctx, c, nil)
	var gone *NewKeyGoneError
	if !errors.As(err, &gone) || again.Deleted || again.Kept() {
		t.Fatalf("%v, deleted %v, both keys kept %v", err, again.Deleted, again.Kept())
	}
	checks := testChecks
	checks.Restart = "run it with --restart"
	w := again.Failure(flowtest.ExplainPlain, checks)
	if !strings.Contains(w, "Run it with --restart") || strings.Contains(w, "in place") {
		t.Fatalf("%s", w)
	}
}
