package seen

import (
	"strconv"
	"sync"
	"time"
)

// Batch gathers the keys a run creates and writes them in one update when
// flushed: a group rotation of 10,000 projects reads and writes the file
// once, not once per key (which made the run quadratic). What a run that is
// killed never flushed is lost: ages are a help, not a record.
type Batch struct {
	s       *Store
	mu      sync.Mutex
	created []created
}

type created struct {
	host, project string
	key           int64
	at            time.Time
}

// Batch is a batch of s's creates.
func (s *Store) Batch() *Batch { return &Batch{s: s} }

// Created records a key created in the project known by its ID, or else
// by its path, when the batch is flushed.
func (b *Batch) Created(host string, project int64, path string, key int64, now time.Time) {
	id := strconv.FormatInt(project, 10)
	if project == 0 {
		id = pathKey(path)
	}
	b.mu.Lock()
	b.created = append(b.created, created{host, id, key, now.UTC().Truncate(time.Second)})
	b.mu.Unlock()
}

// Flush writes the keys created since the last flush, in one update.
func (b *Batch) Flush() error {
	b.mu.Lock()
	todo := b.created
	b.created = nil
	b.mu.Unlock()
	if len(todo) == 0 {
		return nil
	}
	return b.s.update(func(f file) bool {
		for _, c := range todo {
			p := f.project(c.host, c.project)
			if len(p) < maxPerProject {
				p[strconv.FormatInt(c.key, 10)] = Entry{First: c.at, Created: true}
			}
		}
		return true
	})
}
