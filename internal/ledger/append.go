package ledger

// Appends: a record's line added, made durable alone or with the appends
// waiting together (group commit).

import (
	"encoding/json"
	"errors"
	"os"
)

// Append writes rec as the newest state of its ID. durable waits until it
// is on disk (group commit: one sync covers the appends made meanwhile);
// otherwise it survives the process but not the machine, and the next
// durable append or Close syncs it.
func (l *Ledger) Append(rec Record, durable bool) error {
	return l.AppendAll([]Record{rec}, durable)
}

// AppendAll writes several records in one write, and with durable one
// sync: a batch of rotations' records costs one sync.
func (l *Ledger) AppendAll(recs []Record, durable bool) error {
	_, _, err := l.AppendUnless(recs, durable, "", 0, nil)
	return err
}

// AppendUnless writes recs unless a rotation of the project on host
// matches conflict, as read under the lock: two processes checking and
// writing at once cannot both write. found is the record that matched (and
// nothing was written). With no recs it only checks.
func (l *Ledger) AppendUnless(recs []Record, durable bool, host string, projectID int64, conflict func(Record) bool) (found Record, matched bool, err error) {
	var b []byte
	lines := make([]int, 0, len(recs))
	for i := range recs {
		if recs[i].Updated.IsZero() {
			recs[i].Updated = l.now().UTC()
		}
		line, err := json.Marshal(recs[i])
		if err != nil {
			return Record{}, false, err
		}
		b = append(append(b, line...), '\n')
		lines = append(lines, len(line))
	}
	var gen uint64
	err = l.locked(func() error {
		if conflict != nil {
			for _, id := range l.byProject[projectKey{l.identity(host), projectID}] {
				if r := l.recs[id]; r.Kind == KindRotation && conflict(r) {
					found, matched = r, true
					return nil
				}
			}
		}
		if len(recs) == 0 {
			return nil
		}
		if l.unterminated {
			if _, err := l.f.Write([]byte{'\n'}); err != nil {
				return unwritable(l.dir, err)
			}
			l.off++
			l.unterminated = false
		}
		n, err := l.f.Write(b)
		if err != nil {
			if n > 0 { // a partial line would hide the next ones
				_ = l.f.Truncate(l.off)
			}
			return unwritable(l.dir, err)
		}
		at := 0
		for i, rec := range recs {
			l.lines++
			l.keep(rec, string(b[at:at+lines[i]]))
			at += lines[i] + 1
		}
		l.off += int64(n)
		l.written++
		gen = l.written
		return nil
	})
	if err != nil || matched || !durable || len(recs) == 0 {
		return found, matched, err
	}
	return found, matched, l.syncTo(gen)
}

// Sync makes every append so far durable.
func (l *Ledger) Sync() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	gen := l.written
	l.mu.Unlock()
	return l.syncTo(gen)
}

// syncFile makes f durable: a variable so that tests can hold the
// durability promises (what is synced, how often, a failed sync said).
var syncFile = (*os.File).Sync

// syncTo returns once append gen is on disk; appends waiting together
// share one sync.
func (l *Ledger) syncTo(gen uint64) error {
	l.syncMu.Lock()
	defer l.syncMu.Unlock()
	if l.synced >= gen {
		return nil
	}
	l.mu.Lock()
	f, upTo := l.f, l.written
	l.mu.Unlock()
	if f == nil {
		return nil
	}
	// A file closed meanwhile was replaced by a compaction, which synced
	// the new one with every append so far.
	if err := syncFile(f); err != nil && !errors.Is(err, os.ErrClosed) {
		return unwritable(l.dir, err)
	}
	l.synced = upTo
	return nil
}
