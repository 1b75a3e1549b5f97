package ledger

import (
	"bytes"
	"os"
)

// compactSlack is how many lines past twice the records wait for a
// compaction: a small ledger is never rewritten.
var compactSlack = 4096

// compactIfDue rewrites the file with one line per ID once it holds more
// than twice as many lines as IDs (and some slack), when it is opened or
// closed: appends stay cheap and the file stays proportional to the
// rotations it records. With the lock and l.mu held. The new file is written beside the old one (a temporary
// file created exclusively, so never through a symlink), synced, then
// renamed over it; other processes notice the new file and read it.
func (l *Ledger) compactIfDue() error {
	if l.lines <= 2*len(l.recs)+compactSlack {
		return nil
	}
	var buf bytes.Buffer
	for _, id := range l.order {
		buf.WriteString(l.raw[id])
		buf.WriteByte('\n')
	}
	// Until the rename, a compaction that fails leaves the ledger as it
	// was, whole: it only saves space, so it is left for another time
	// (on Windows a file another process holds open cannot be replaced).
	tmp, err := os.CreateTemp(l.dir, ".rotations-*.tmp")
	if err != nil {
		return nil
	}
	name := tmp.Name()
	_, err = tmp.Write(buf.Bytes())
	if err == nil {
		err = syncFile(tmp)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(name, l.path)
	}
	if err != nil {
		os.Remove(name)
		return nil
	}
	syncDir(l.dir)
	l.f.Close()
	f, err := openFile(l.path)
	if err != nil {
		l.f = nil
		return unwritable(l.dir, err)
	}
	l.f, l.off, l.lines = f, int64(buf.Len()), len(l.order)
	return nil
}

// openFile opens the ledger for reading and appending, creating it.
func openFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
}

// syncDir makes a rename in dir durable, where the system allows it.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
