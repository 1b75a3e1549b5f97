package ledger

import (
	"path/filepath"
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
