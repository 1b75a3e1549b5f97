package ledger

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// openFilesIn lists this process's open files in dir.
func openFilesIn(t *testing.T, dir string) []string {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && strings.HasPrefix(target, dir+"/") {
			out = append(out, target)
		}
	}
	return out
}

// A closed ledger holds no file open (a file held open cannot be replaced
// on Windows, and is a descriptor lost in a long console session), the
// file a compaction on open made included.
func TestCloseLetsEveryFileGo(t *testing.T) {
	defer func(s int) { compactSlack = s }(compactSlack)
	compactSlack = 0
	dir := t.TempDir()
	l, err := OpenLedger(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, phase := range []string{PhaseCreating, PhaseCreated, PhaseDone} {
		if err := l.Append(rot("r1", 1, phase), true); err != nil {
			t.Fatal(err)
		}
	}
	// Close after Close, as a deferred one after an explicit one.
	if err := errorsOf(l.Close(), l.Close()); err != nil {
		t.Fatal(err)
	}
	// A file due for compaction (three lines of one ID, as a copy from
	// another machine might be) is compacted on open.
	line := `{"kind":"rotation","id":"r3","host":"h","project_id":3,"old_key_id":1,"phase":"created"}` + "\n"
	os.WriteFile(filepath.Join(dir, FileName), []byte(line+line+line), 0o600)
	l, err = OpenLedger(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := countLines(t, filepath.Join(dir, FileName)); n != 1 {
		t.Fatalf("%d lines: not compacted on open", n)
	}
	if err := l.Append(rot("r2", 2, PhaseCreating), true); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if open := openFilesIn(t, dir); len(open) != 0 {
		t.Fatalf("files left open: %v", open)
	}
}

func errorsOf(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
