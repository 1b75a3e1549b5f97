package ledger

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func rot(id string, project int64, phase string) Record {
	return Record{Kind: KindRotation, ID: id, Host: "https://gitlab.example", ProjectID: project, OldKeyID: 1, Phase: phase,
		Started: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}
}

func open(t *testing.T, dir string) *Ledger {
	t.Helper()
	l, err := OpenLedger(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// Two ledgers on one directory stand for two processes: each sees what the
// other appended before it appends or answers ChangedSince.
func TestTwoProcessesSeeEachOther(t *testing.T) {
	dir := t.TempDir()
	a, b := open(t, dir), open(t, dir)
	if err := a.Append(rot("r1", 1, PhaseCreating), true); err != nil {
		t.Fatal(err)
	}
	v := b.Version()
	if err := a.Append(rot("r1", 1, PhaseCreated), false); err != nil {
		t.Fatal(err)
	}
	changed, err := b.ChangedSince(v, func(r Record) bool { return r.ProjectID == 1 })
	if err != nil || !changed {
		t.Fatalf("b did not see a's change: %v %v", changed, err)
	}
	if r, _ := b.Get("r1"); r.Phase != PhaseCreated {
		t.Fatalf("b reads phase %q, want created", r.Phase)
	}
	changed, _ = b.ChangedSince(b.Version(), func(Record) bool { return true })
	if changed {
		t.Fatal("nothing changed since the last version, yet ChangedSince says so")
	}
	// Reopened, the newest state of each ID is kept.
	c := open(t, dir)
	if got := c.Records(nil); len(got) != 1 || got[0].Phase != PhaseCreated {
		t.Fatalf("reopened: %+v", got)
	}
}

// A crash in the middle of an append leaves a line without its newline:
// the next append cuts it off rather than gluing a record to it.
func TestTornLastLineIsCut(t *testing.T) {
	dir := t.TempDir()
	a := open(t, dir)
	if err := a.Append(rot("r1", 1, PhaseCreating), true); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(filepath.Join(dir, FileName), os.O_WRONLY|os.O_APPEND, 0)
	f.WriteString(`{"kind":"rotation","id":"r2","pha`)
	f.Close()
	b := open(t, dir)
	if err := b.Append(rot("r3", 3, PhaseCreating), true); err != nil {
		t.Fatal(err)
	}
	c := open(t, dir)
	got := c.Records(nil)
	if len(got) != 2 || got[0].ID != "r1" || got[1].ID != "r3" {
		t.Fatalf("records after a torn line: %+v", got)
	}
}

// A last line that is a whole record without its newline (a hand-edited or
// copied ledger) is kept: its rotation is not forgotten, and the next append
// starts on a line of its own.
func TestWholeLastRecordWithoutNewlineIsKept(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	os.WriteFile(path, []byte(`{"kind":"rotation","id":"r1","host":"h","project_id":1,"old_key_id":1,"phase":"created","new_key_id":2}`), 0o600)
	b := open(t, dir)
	if got := b.Records(nil); len(got) != 1 || got[0].ID != "r1" || got[0].NewKeyID != 2 {
		t.Fatalf("records: %+v", got)
	}
	if err := b.Append(rot("r3", 3, PhaseCreating), true); err != nil {
		t.Fatal(err)
	}
	// The appending ledger reads on from the right place: nothing it wrote
	// is taken for a torn line and cut off.
	if err := b.Refresh(); err != nil {
		t.Fatal(err)
	}
	if err := b.Append(rot("r4", 4, PhaseCreating), true); err != nil {
		t.Fatal(err)
	}
	c := open(t, dir)
	if got := c.Records(nil); len(got) != 3 || got[0].ID != "r1" || got[1].ID != "r3" || got[2].ID != "r4" {
		t.Fatalf("records after an append: %+v", got)
	}
}

// A damaged line in the middle is refused, naming the file and the line:
// nothing is appended past it.
func TestCorruptLineRefused(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	os.WriteFile(path, []byte(`{"kind":"rotation","id":"r1","phase":"done"}`+"\nnot json\n"), 0o600)
	_, err := OpenLedger(dir)
	var bad *CorruptError
	if !errors.As(err, &bad) || bad.Line != 2 || bad.Path != path {
		t.Fatalf("err = %v, want a CorruptError at line 2 of %s", err, path)
	}
	if !strings.Contains(err.Error(), path) {
		t.Fatalf("the error does not name the file: %v", err)
	}
	os.WriteFile(path, []byte(`{"kind":"other","id":"x"}`+"\n"), 0o600)
	if _, err := OpenLedger(dir); !errors.As(err, &bad) {
		t.Fatalf("a record of no known kind was taken: %v", err)
	}
}

// Compaction keeps one line per ID; a process holding the old file reads
// the new one and its appends are not lost in the old one.
func TestCompactionKeepsOneLinePerID(t *testing.T) {
	defer func(s int) { compactSlack = s }(compactSlack)
	compactSlack = 16
	dir := t.TempDir()
	a, b := open(t, dir), open(t, dir)
	for i := range 400 {
		id := fmt.Sprintf("r%d", i%10)
		if err := a.Append(rot(id, int64(i%10), PhaseCreated), false); err != nil {
			t.Fatal(err)
		}
	}
	if lines := countLines(t, filepath.Join(dir, FileName)); lines != 400 {
		t.Fatalf("%d lines: compacted in the middle of a run", lines)
	}
	a.Close() // compacts
	if lines := countLines(t, filepath.Join(dir, FileName)); lines != 10 {
		t.Fatalf("%d lines for 10 IDs: not compacted", lines)
	}
	if err := b.Append(rot("late", 99, PhaseCreating), true); err != nil {
		t.Fatal(err)
	}
	c := open(t, dir)
	if _, ok := c.Get("late"); !ok {
		t.Fatal("an append after another process compacted was lost")
	}
	if got := len(c.Records(nil)); got != 11 {
		t.Fatalf("%d records, want 11", got)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".rotations-*")); len(m) != 0 {
		t.Fatalf("temporary files left: %v", m)
	}
}

func countLines(t *testing.T, path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "\n")
}

// Appends from many goroutines share syncs and lose nothing.
func TestConcurrentDurableAppends(t *testing.T) {
	dir := t.TempDir()
	a := open(t, dir)
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := a.Append(rot(fmt.Sprintf("r%d", i), int64(i), PhaseCreating), true); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got := len(open(t, dir).Records(nil)); got != 50 {
		t.Fatalf("%d records, want 50", got)
	}
}

// A claim is held against every other holder, in this process or another,
// and leaves no file behind once let go.
func TestClaim(t *testing.T) {
	dir := t.TempDir()
	a, b := open(t, dir), open(t, dir)
	name := ProjectClaim("https://gitlab.example", 7)
	release, err := a.Claim(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Claim(name); !errors.Is(err, ErrBusy) {
		t.Fatalf("second claim: %v, want ErrBusy", err)
	}
	if _, err := b.Claim(ProjectClaim("https://gitlab.example", 8)); err != nil {
		t.Fatalf("another project's claim: %v", err)
	}
	release()
	if m, _ := filepath.Glob(filepath.Join(dir, "locks", name+".lock")); len(m) != 0 {
		t.Fatalf("claim file left after release: %v", m)
	}
	again, err := b.Claim(name)
	if err != nil {
		t.Fatalf("claim after release: %v", err)
	}
	again()
	if ProjectClaim("https://a", 1) == ProjectClaim("https://b", 1) {
		t.Fatal("two hosts share a project claim")
	}
	if CampaignClaim("h", "SENTRY_DSN", "production") == CampaignClaim("h", "SENTRY_DSN", "staging") {
		t.Fatal("two scopes share a campaign claim")
	}
}

// A probe tells a claim held (here or in another ledger, as another
// process would hold it) from a free one, and this process's probes and
// claims, however many at once, never refuse one another.
func TestHeld(t *testing.T) {
	dir := t.TempDir()
	a, b := open(t, dir), open(t, dir)
	name := CampaignClaim("h", "SENTRY_DSN", "")
	if held, err := a.Held(name); held || err != nil {
		t.Fatalf("free claim: held %v, %v", held, err)
	}
	release, err := b.Claim(name)
	if err != nil {
		t.Fatal(err)
	}
	if held, _ := a.Held(name); !held {
		t.Fatal("a claim held elsewhere is not seen")
	}
	if held, _ := b.Held(name); !held {
		t.Fatal("this process's own claim is not seen")
	}
	release()
	var wg sync.WaitGroup
	var refused atomic.Int32
	for i := 0; i < 50; i++ {
		wg.Add(2)
		go func() {
			defer wg.Done()
			if held, _ := a.Held(name); held {
				refused.Add(1)
			}
		}()
		go func() {
			defer wg.Done()
			r, err := a.Claim(ProjectClaim("h", int64(i)))
			if err != nil {
				refused.Add(1)
				return
			}
			if held, _ := a.Held(name); held {
				refused.Add(1)
			}
			r()
		}()
	}
	wg.Wait()
	if n := refused.Load(); n != 0 {
		t.Fatalf("%d probes or claims refused by this process's own probes", n)
	}
}

// A read-only state directory is said to be one, not taken for another
// run holding a lock.
func TestReadOnlyDirectoryNamed(t *testing.T) {
	dir := t.TempDir()
	if os.Getuid() == 0 {
		// Root writes through permissions: a read-only mount it is.
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "ro", "tmpfs", dir).CombinedOutput(); err != nil {
			t.Fatalf("mounting a read-only tmpfs as root: %v: %s", err, out)
		}
		t.Cleanup(func() { exec.Command("umount", dir).Run() })
	} else if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	_, err := OpenLedger(dir)
	var ro *UnwritableError
	if !errors.As(err, &ro) || ro.Dir != dir {
		t.Fatalf("err = %v, want an UnwritableError naming %s", err, dir)
	}
	if errors.Is(err, ErrBusy) {
		t.Fatal("a read-only folder is taken for a busy claim")
	}
}

// ReadOnly reads what is there, writes nothing (no lock file, no append),
// and a missing ledger reads as empty.
func TestReadOnlyWritesNothing(t *testing.T) {
	dir := t.TempDir()
	a := open(t, dir)
	if err := a.Append(rot("r1", 1, PhaseCreated), true); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, FileName+".lock"))
	r, err := ReadOnly(dir)
	if err != nil || len(r.Records(nil)) != 1 {
		t.Fatalf("%v: %+v", err, r.Records(nil))
	}
	var ro *UnwritableError
	if err := r.Append(rot("r2", 2, PhaseCreating), true); !errors.As(err, &ro) {
		t.Fatalf("an append to a read-only ledger: %v", err)
	}
	r.Close()
	if _, err := os.Stat(filepath.Join(dir, FileName+".lock")); err == nil {
		t.Fatal("reading took the lock")
	}
	if e, err := ReadOnly(filepath.Join(dir, "none")); err != nil || len(e.Records(nil)) != 0 {
		t.Fatalf("%v", err)
	}
}
