package rotation

import (
	"context"
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
