package ledger

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/errtrack/errtrack/internal/hosturl"
	"github.com/gofrs/flock"
)

// FileName is the ledger's file in the state directory.
const FileName = "rotations.jsonl"

// lockWait bounds the wait for another process appending to the ledger.
const lockWait = 5 * time.Second

// maxLine bounds one record: a campaign of many thousand projects fits.
const maxLine = 4 << 20

// Ledger is the rotation ledger of one state directory, shared by every
// errtrack process using it. Appends go through a file lock; each process
// reads what the others appended before it appends or answers.
type Ledger struct {
	dir, path string

	mu    sync.Mutex
	f     *os.File
	lockF *flock.Flock // the append lock's file
	off   int64        // bytes of f read
	lines int          // complete lines in the file
	// readOnly: read by ReadOnly, never written.
	readOnly bool
	// unterminated: the file's last line is a whole record without its
	// newline; the next append writes the newline first.
	unterminated bool
	recs         map[string]Record
	raw          map[string]string // each ID's newest line, to tell a change
	order        []string          // IDs in the order first seen
	// byProject indexes rotations by host and project, so a lookup costs
	// the same at 10 or 10,000 rotations.
	byProject map[projectKey][]string
	// hosts caches each host's identity (hosturl.Identity): a GitLab
	// written two ways is one host to the ledger and its claims.
	hosts map[string]string
	// version counts the changes this process has seen; changed is the
	// version at which each ID last changed.
	version uint64
	changed map[string]uint64

	// Group commit: written counts appends, synced those made durable.
	syncMu          sync.Mutex
	written, synced uint64

	// claimMu orders this process's claims and probes: a probe holds a
	// claim's lock for a moment, which must not refuse a claim (or another
	// probe) of this process. mine counts the claims this process holds.
	claimMu sync.Mutex
	mine    map[string]int

	now func() time.Time
}

// CorruptError: a line of the ledger is not a record. Nothing is changed
// until the file is repaired or moved aside.
type CorruptError struct {
	Path string
	Line int
	Err  error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("the rotation ledger %s is damaged at line %d (%v)", e.Path, e.Line, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }

// UnwritableError: the state directory cannot be written (read-only,
// permissions); it is not another run.
type UnwritableError struct {
	Dir string
	Err error
}

func (e *UnwritableError) Error() string {
	return fmt.Sprintf("the state directory %s cannot be written (%v)", e.Dir, e.Err)
}

func (e *UnwritableError) Unwrap() error { return e.Err }

// unwritable wraps err from a write to dir when it is about permissions or
// a read-only file system.
func unwritable(dir string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, fs.ErrPermission) || isReadOnly(err) {
		return &UnwritableError{Dir: dir, Err: err}
	}
	return err
}

// OpenLedger opens (or starts) the ledger in dir and reads it whole.
func OpenLedger(dir string) (*Ledger, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, unwritable(dir, err)
	}
	l := &Ledger{dir: dir, path: filepath.Join(dir, FileName), recs: map[string]Record{},
		raw: map[string]string{}, changed: map[string]uint64{}, byProject: map[projectKey][]string{}, now: time.Now}
	// A file grown past twice its records is compacted when opened: never
	// in the middle of a run, where an append must stay cheap.
	err := l.locked(l.compactIfDue)
	if err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

// Path is the ledger's file.
func (l *Ledger) Path() string { return l.path }

// Dir is the state directory holding it.
func (l *Ledger) Dir() string { return l.dir }

// Close makes what was appended durable and closes the file.
func (l *Ledger) Close() error {
	if l == nil || l.readOnly {
		return nil
	}
	err := l.Sync()
	if cerr := l.locked(l.compactIfDue); err == nil {
		err = cerr
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		if cerr := l.f.Close(); err == nil {
			err = cerr
		}
		l.f = nil
	}
	if l.lockF != nil {
		_ = l.lockF.Close()
		l.lockF = nil
	}
	return err
}

// locked runs f under the file lock, after reading what other processes
// appended; with l.mu held.
func (l *Ledger) locked(f func() error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.readOnly {
		return &UnwritableError{Dir: l.dir, Err: errReadOnly}
	}
	unlock, err := l.appendLock()
	if err != nil {
		return unwritable(l.dir, fmt.Errorf("locking %s.lock: %w", l.path, err))
	}
	defer unlock()
	if err := l.refresh(); err != nil {
		return err
	}
	return f()
}

// refresh reads the lines appended since the last read; a file replaced
// by another process's compaction is read again whole. Under the lock, a
// last line without its newline is a crashed append's: it is cut off.
func (l *Ledger) refresh() error {
	size, err := l.reopenIfReplaced()
	if err != nil {
		return err
	}
	if size == l.off {
		return nil // nothing appended since: the usual case
	}
	if _, err := l.f.Seek(l.off, io.SeekStart); err != nil {
		return err
	}
	r := bufio.NewReaderSize(l.f, 64<<10)
	for {
		line, err := r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			full, ferr := l.readLong(r, line)
			line, err = full, ferr
		}
		if errors.Is(err, io.EOF) {
			if len(line) == 0 {
				return nil
			}
			if _, perr := l.parse(bytes.TrimSpace(line)); perr == nil {
				// A whole record whose newline is missing (a hand-edited
				// or copied ledger): kept; the next append ends its line.
				l.unterminated = true
				if terr := l.take(line); terr != nil {
					return terr
				}
				l.off += int64(len(line))
				return nil
			}
			// A torn append: nobody writes now, so it is garbage.
			if terr := l.f.Truncate(l.off); terr != nil {
				return unwritable(l.dir, terr)
			}
			return nil
		}
		if err != nil {
			return err
		}
		if err := l.take(line); err != nil {
			return err
		}
		l.off += int64(len(line))
	}
}

// readLong reads the rest of a line longer than the buffer, up to maxLine.
func (l *Ledger) readLong(r *bufio.Reader, first []byte) ([]byte, error) {
	buf := append([]byte(nil), first...)
	for {
		more, err := r.ReadSlice('\n')
		buf = append(buf, more...)
		if len(buf) > maxLine {
			return nil, &CorruptError{Path: l.path, Line: l.lines + 1, Err: errors.New("a line longer than 4 MiB")}
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return buf, err
		}
	}
}

// take reads one complete line into the records.
func (l *Ledger) take(line []byte) error {
	l.lines++
	text := bytes.TrimSpace(line)
	if len(text) == 0 {
		return nil
	}
	rec, err := l.parse(text)
	if err != nil {
		return err
	}
	l.keep(rec, string(text))
	return nil
}

// parse reads one line's record; a line that is not one is a CorruptError
// at the line counted last.
func (l *Ledger) parse(text []byte) (Record, error) {
	var rec Record
	if err := json.Unmarshal(text, &rec); err != nil {
		return rec, &CorruptError{Path: l.path, Line: l.lines, Err: err}
	}
	if rec.ID == "" || (rec.Kind != KindRotation && rec.Kind != KindCampaign && rec.Kind != KindMigration) {
		return rec, &CorruptError{Path: l.path, Line: l.lines, Err: errors.New("a record without an ID or kind")}
	}
	return rec, nil
}

// identity is host's hosturl.Identity, cached; with l.mu held.
func (l *Ledger) identity(host string) string {
	if id, ok := l.hosts[host]; ok {
		return id
	}
	if l.hosts == nil {
		l.hosts = map[string]string{}
	}
	id := hosturl.Identity(host)
	l.hosts[host] = id
	return id
}

// keep makes rec, read or written as text, the newest state of its ID.
func (l *Ledger) keep(rec Record, text string) {
	if l.raw[rec.ID] == text {
		return
	}
	if _, ok := l.recs[rec.ID]; !ok {
		l.order = append(l.order, rec.ID)
		if rec.Kind == KindRotation || rec.Kind == KindMigration {
			k := projectKey{l.identity(rec.Host), rec.ProjectID}
			l.byProject[k] = append(l.byProject[k], rec.ID)
		}
	}
	l.recs[rec.ID], l.raw[rec.ID] = rec, text
	l.version++
	l.changed[rec.ID] = l.version
}

// reopenIfReplaced opens the file, or opens it again when the path no
// longer names the file held (another process compacted it): the new file
// is read from its start, records unchanged staying unchanged. size is
// the file's size now.
func (l *Ledger) reopenIfReplaced() (size int64, err error) {
	if l.f != nil {
		held, herr := l.f.Stat()
		now, nerr := os.Stat(l.path)
		if herr == nil && nerr == nil && os.SameFile(held, now) {
			return now.Size(), nil
		}
		l.f.Close()
		l.f = nil
	}
	f, err := openFile(l.path)
	if err != nil {
		return 0, unwritable(l.dir, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return 0, err
	}
	l.f, l.off, l.lines, l.unterminated = f, 0, 0, false
	return st.Size(), nil
}
