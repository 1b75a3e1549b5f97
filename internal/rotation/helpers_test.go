package rotation

import (
	"testing"

	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/ledger"
)

// The ledger the rotation's tests share (the group changes' tests open it the same way).

// testLedger is a fresh ledger in its own state directory; more opens the
// same directory again, as another process would.
func testLedger(t *testing.T) (*Rotations, func() *Rotations) {
	t.Helper()
	dir := t.TempDir()
	open := func() *Rotations {
		store, err := ledger.OpenLedger(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		return NewRotations(store, flowtest.TestHost, FrontEndGroupCommand).WithUser("tester")
	}
	return open(), open
}
