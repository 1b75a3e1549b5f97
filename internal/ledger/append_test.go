package ledger

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// AppendUnless is how a rotation starts only once: a start whose project
// already has an open rotation (as read under the lock, whatever another
// process appended) writes nothing and names the rotation found; a
// migration of the same project is not a rotation and does not stop it.
func TestAppendUnlessStartsARotationOnce(t *testing.T) {
	dir := t.TempDir()
	a, b := open(t, dir), open(t, dir)
	host := "https://gitlab.example"
	isOpen := func(r Record) bool { return r.IsOpen() }
	mig := Record{Kind: KindMigration, ID: "m1", Host: host, ProjectID: 1, Phase: PhaseCreating}
	if err := a.Append(mig, false); err != nil {
		t.Fatal(err)
	}
	if found, matched, err := b.AppendUnless([]Record{rot("r1", 1, PhaseCreating)}, true, host, 1, isOpen); err != nil || matched {
		t.Fatalf("the first start: found %+v, matched %v, %v", found, matched, err)
	}
	found, matched, err := a.AppendUnless([]Record{rot("r2", 1, PhaseCreating)}, true, host, 1, isOpen)
	if err != nil || !matched || found.ID != "r1" {
		t.Fatalf("a second start of project 1: found %+v, matched %v, %v", found, matched, err)
	}
	if _, ok := open(t, dir).Get("r2"); ok {
		t.Fatal("the second start was written")
	}
	if _, matched, err := a.AppendUnless([]Record{rot("r3", 2, PhaseCreating)}, true, host, 2, isOpen); err != nil || matched {
		t.Fatalf("another project's start: matched %v, %v", matched, err)
	}
}

// A batch of records written at once keeps each record's own line: once
// the file is compacted from what was kept, every record reads back as it
// was written.
func TestAppendAllKeepsEachRecordsLine(t *testing.T) {
	defer func(s int) { compactSlack = s }(compactSlack)
	compactSlack = 0
	dir := t.TempDir()
	a := open(t, dir)
	phases := []string{PhaseCreating, PhaseCreated, PhaseDone}
	for _, phase := range phases {
		recs := []Record{rot("a", 1, phase), rot("bb", 22, phase), rot("ccc", 333, phase)}
		recs[1].NewKeyID, recs[2].NewKeyID = 22, 333
		if err := a.AppendAll(recs, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if n := countLines(t, filepath.Join(dir, FileName)); n != 3 {
		t.Fatalf("%d lines for 3 IDs: not compacted", n)
	}
	got := open(t, dir).Records(nil)
	if len(got) != 3 || got[0].ID != "a" || got[1].ID != "bb" || got[1].NewKeyID != 22 || got[2].ID != "ccc" || got[2].NewKeyID != 333 {
		t.Fatalf("records after compaction: %+v", got)
	}
	for _, r := range got {
		if r.Phase != PhaseDone {
			t.Fatalf("%s reads phase %q, want done", r.ID, r.Phase)
		}
	}
}

// A command without a state directory has no ledger: syncing and closing
// it do nothing, and closing a ledger twice (a deferred Close after an
// explicit one) is no error.
func TestNoLedgerAndClosingTwice(t *testing.T) {
	var none *Ledger
	if err := none.Sync(); err != nil {
		t.Fatal(err)
	}
	if err := none.Close(); err != nil {
		t.Fatal(err)
	}
	l, err := OpenLedger(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Append(rot("r1", 1, PhaseCreating), true); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
}

// countSyncs counts the syncs of the ledger's file (and of compaction's
// new file) until the test ends; fail, when set, is what they answer.
func countSyncs(t *testing.T) (ledger, compacted *atomic.Int32, fail *atomic.Pointer[error]) {
	t.Helper()
	ledger, compacted, fail = new(atomic.Int32), new(atomic.Int32), new(atomic.Pointer[error])
	orig := syncFile
	syncFile = func(f *os.File) error {
		if strings.HasSuffix(f.Name(), ".tmp") {
			compacted.Add(1)
		} else {
			ledger.Add(1)
		}
		if err := fail.Load(); err != nil {
			return *err
		}
		return orig(f)
	}
	t.Cleanup(func() { syncFile = orig })
	return ledger, compacted, fail
}

// A durable append is on disk when it returns, each one: one sync each, a
// batch one sync, an append that was not asked to be durable none, and a
// Sync with nothing new none. A sync that fails is said, not taken for done.
func TestDurableAppendsAreSynced(t *testing.T) {
	syncs, _, fail := countSyncs(t)
	l := open(t, t.TempDir())
	step := func(what string, want int32, do func() error) {
		t.Helper()
		before := syncs.Load()
		if err := do(); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if got := syncs.Load() - before; got != want {
			t.Fatalf("%s: %d syncs, want %d", what, got, want)
		}
	}
	step("an append not durable", 0, func() error { return l.Append(rot("r1", 1, PhaseCreating), false) })
	step("a durable append", 1, func() error { return l.Append(rot("r1", 1, PhaseCreated), true) })
	step("another durable append", 1, func() error { return l.Append(rot("r2", 2, PhaseCreating), true) })
	step("a durable batch", 1, func() error {
		return l.AppendAll([]Record{rot("r3", 3, PhaseCreating), rot("r4", 4, PhaseCreating)}, true)
	})
	step("a Sync with nothing new", 0, l.Sync)
	step("an append not durable", 0, func() error { return l.Append(rot("r5", 5, PhaseCreating), false) })
	step("a Sync after it", 1, l.Sync)
	eio := error(syscall.EIO)
	fail.Store(&eio)
	if err := l.Append(rot("r6", 6, PhaseCreating), true); !errors.Is(err, syscall.EIO) {
		t.Fatalf("a durable append whose sync failed: %v", err)
	}
	fail.Store(nil)
	step("the Sync after a failed one", 1, l.Sync)
}
