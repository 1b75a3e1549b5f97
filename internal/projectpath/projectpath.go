// Package projectpath remembers the path each project had when errtrack
// last read it, by host and ID. A project given by ID can then have what
// hangs on its path (its ancestor groups' CI/CD variables) read at once
// with the project itself; the path the server gives still decides. Kept
// in errtrack's state directory; paths only, never a secret.
package projectpath

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/errtrack/errtrack/internal/atomicfile"
	"github.com/errtrack/errtrack/internal/capread"
	"github.com/errtrack/errtrack/internal/filelock"
)

// maxPerHost bounds a host's entries: past it, the others are dropped to
// make room (any of them: a miss costs one round trip, nothing more).
var maxPerHost = 2000

// maxFile bounds what is read of the file.
const maxFile = 4 << 20

// Store is the file at a path.
type Store struct{ path string }

// Open names the file; nothing is read until it is used.
func Open(path string) *Store { return &Store{path: path} }

// file: host → project ID → path.
type file map[string]map[string]string

// Lookup is the path project id of host had when last read; "" when not
// known or the file cannot be read.
func (s *Store) Lookup(host string, id int64) string {
	return s.read()[host][strconv.FormatInt(id, 10)]
}

// Remember records the path of project id on host.
func (s *Store) Remember(host string, id int64, path string) error {
	if id <= 0 || path == "" {
		return nil
	}
	if s.Lookup(host, id) == path {
		return nil // the usual case: nothing to write, no lock taken
	}
	return s.update(map[key]string{{host, id}: path})
}

type key struct {
	host string
	id   int64
}

// update writes paths into the file, under its lock.
func (s *Store) update(paths map[key]string) error {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return err
	}
	unlock, err := filelock.Lock(s.path+".lock", 5*time.Second)
	if err != nil {
		return err
	}
	defer unlock()
	f := s.read()
	for k, path := range paths {
		f.set(k.host, k.id, path)
	}
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return atomicfile.Write(s.path, b, 0o600)
}

// set records a path, dropping others past maxPerHost.
func (f file) set(host string, id int64, path string) {
	h := f[host]
	if h == nil {
		h = map[string]string{}
		f[host] = h
	}
	k := strconv.FormatInt(id, 10)
	for other := range h {
		if len(h) < maxPerHost {
			break
		}
		if other != k {
			delete(h, other)
		}
	}
	h[k] = path
}

// Batch is a run's use of the file: read once, answered from memory, and
// the paths learnt written in one update when flushed (a group command
// reads and writes the file once, not once per project).
type Batch struct {
	s      *Store
	mu     sync.Mutex
	snap   file
	learnt map[key]string
}

// Batch is a batch of s's lookups and changes.
func (s *Store) Batch() *Batch { return &Batch{s: s} }

// Lookup is Store.Lookup, from the batch's copy.
func (b *Batch) Lookup(host string, id int64) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if p, ok := b.learnt[key{host, id}]; ok {
		return p
	}
	if b.snap == nil {
		b.snap = b.s.read()
	}
	return b.snap[host][strconv.FormatInt(id, 10)]
}

// Remember is Store.Remember, written when the batch is flushed.
func (b *Batch) Remember(host string, id int64, path string) {
	if id <= 0 || path == "" || b.Lookup(host, id) == path {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.learnt == nil {
		b.learnt = map[key]string{}
	}
	b.learnt[key{host, id}] = path
}

// Flush writes the paths learnt since the last flush, in one update.
func (b *Batch) Flush() error {
	b.mu.Lock()
	learnt := b.learnt
	b.learnt = nil
	for k, p := range learnt {
		if b.snap != nil {
			b.snap.set(k.host, k.id, p)
		}
	}
	b.mu.Unlock()
	if len(learnt) == 0 {
		return nil
	}
	return b.s.update(learnt)
}

// read is the file's content; an unreadable or corrupt file is empty: a
// path remembered is a help, not a record anything depends on.
func (s *Store) read() file {
	f := file{}
	b, err := capread.ReadFile(s.path, maxFile)
	if err != nil || json.Unmarshal(b, &f) != nil {
		return file{}
	}
	return f
}
