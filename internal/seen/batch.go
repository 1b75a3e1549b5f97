package seen

import (
	"sync"
	"time"
)

// Batch is a run's use of the file: it is read once, answered from memory,
// and what the run learnt (keys listed, keys created) is written in one
// update when flushed, applied under the lock to the file as it is then
// (another process's changes kept). A group command of 10,000 projects
// reads and writes the file once, not once per project (which made it
// quadratic). What a run that is killed never flushed is lost: ages are a
// help, not a record.
type Batch struct {
	s    *Store
	mu   sync.Mutex
	snap file // nil until first used
	ops  []func(file) bool
}

// Batch is a batch of s's changes.
func (s *Store) Batch() *Batch { return &Batch{s: s} }

// Observe is Store.Observe answered from the batch's copy of the file.
func (b *Batch) Observe(host string, project int64, path string, keys []int64, now time.Time) (map[int64]Entry, error) {
	out := make(map[int64]Entry, len(keys))
	return out, b.apply(
		func(f file) bool { return f.observe(host, project, path, keys, now, out) },
		func(f file) bool { return f.observe(host, project, path, keys, now, nil) })
}

// Created is Store.Created, written when the batch is flushed.
func (b *Batch) Created(host string, project int64, path string, key int64, now time.Time) {
	op := func(f file) bool { return f.created(host, project, path, key, now) }
	_ = b.apply(op, op)
}

// apply runs now on the batch's copy and keeps later for the flush.
func (b *Batch) apply(now, later func(file) bool) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.snap == nil {
		f, err := b.s.read()
		if err != nil {
			return err
		}
		b.snap = f
	}
	now(b.snap)
	b.ops = append(b.ops, later)
	return nil
}

// Flush writes what the batch learnt since the last flush, in one update.
func (b *Batch) Flush() error {
	b.mu.Lock()
	ops := b.ops
	b.ops = nil
	b.mu.Unlock()
	if len(ops) == 0 {
		return nil
	}
	return b.s.update(func(f file) bool {
		changed := false
		for _, op := range ops {
			changed = op(f) || changed
		}
		return changed
	})
}
