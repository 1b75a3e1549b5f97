package ledger

import (
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
)

// Compaction waits until the file holds more than twice as many lines as
// IDs and the slack: a file at that size is left as it is, one line past
// it is compacted, and the ledger opened on the compacted file appends on.
func TestCompactionThreshold(t *testing.T) {
	defer func(s int) { compactSlack = s }(compactSlack)
	compactSlack = 4
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	a := open(t, dir)
	// 3 IDs: 2*3+4 = 10 lines is the most left alone.
	for i := range 10 {
		if err := a.Append(rot(fmt.Sprintf("r%d", i%3), int64(i%3), PhaseCreated), false); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if n := countLines(t, path); n != 10 {
		t.Fatalf("%d lines: compacted at the threshold", n)
	}
	b := open(t, dir)
	if err := b.Append(rot("r0", 0, PhaseDone), false); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if n := countLines(t, path); n != 3 {
		t.Fatalf("%d lines for 3 IDs: not compacted past the threshold", n)
	}
	// Opened on a file due for compaction, a ledger compacts it and its
	// appends land in the new file.
	for range 12 {
		if err := open(t, dir).Append(rot("r1", 1, PhaseCreated), false); err != nil {
			t.Fatal(err)
		}
	}
	c := open(t, dir)
	if err := c.Append(rot("late", 9, PhaseCreating), true); err != nil {
		t.Fatal(err)
	}
	if _, ok := open(t, dir).Get("late"); !ok {
		t.Fatal("an append after the compaction on open was lost")
	}
}

// Compaction's new file is on disk before it replaces the ledger; a new
// file that could not be synced replaces nothing: the ledger stays whole
// as it was, to be compacted another time.
func TestCompactionSyncsBeforeReplacing(t *testing.T) {
	defer func(s int) { compactSlack = s }(compactSlack)
	compactSlack = 0
	_, compacted, fail := countSyncs(t)
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	fill := func() {
		l := open(t, dir)
		for _, phase := range []string{PhaseCreating, PhaseCreated, PhaseDisabled, PhaseDone} {
			if err := l.Append(rot("r1", 1, phase), false); err != nil {
				t.Fatal(err)
			}
		}
		eio := error(syscall.EIO)
		fail.Store(&eio)
		defer fail.Store(nil)
		if err := l.Close(); err == nil {
			t.Fatal("a Close whose sync failed said nothing")
		}
	}
	fill()
	if n := countLines(t, path); n < 4 {
		t.Fatalf("%d lines: compacted from a file that was not synced", n)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".rotations-*")); len(m) != 0 {
		t.Fatalf("temporary files left: %v", m)
	}
	before := compacted.Load()
	if err := open(t, dir).Close(); err != nil {
		t.Fatal(err)
	}
	if compacted.Load() == before || countLines(t, path) != 1 {
		t.Fatalf("compaction: %d syncs of its file, %d lines", compacted.Load()-before, countLines(t, path))
	}
}
