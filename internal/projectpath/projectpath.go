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
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return err
	}
	unlock, err := filelock.Lock(s.path+".lock", 5*time.Second)
	if err != nil {
		return err
	}
	defer unlock()
	f := s.read()
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
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return atomicfile.Write(s.path, b, 0o600)
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
