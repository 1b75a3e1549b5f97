// Package seen remembers when errtrack first saw each client key. GitLab's
// keys carry no creation date, so this is the only age errtrack can give:
// exact for a key errtrack created, else the first time a whole list of the
// project's keys showed it. Kept in errtrack's state directory, never a
// secret (IDs and times only).
package seen

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/errtrack/errtrack/internal/atomicfile"
	"github.com/errtrack/errtrack/internal/filelock"
)

// Entry is what is known of one key.
type Entry struct {
	First time.Time `json:"first_seen"`
	// Created: errtrack created the key, so First is its creation.
	Created bool `json:"created,omitempty"`
}

// maxPerProject bounds a project's entries: past it, keys are not
// remembered (a project of 100,000 keys would make the file large).
const maxPerProject = 20000

// Store is the file at a path; its methods read, change and write it under
// a lock, so two errtrack processes do not lose each other's entries.
type Store struct{ path string }

// Open names the file; nothing is read until it is used.
func Open(path string) *Store { return &Store{path: path} }

// file: host → project ID → key ID → entry (JSON object keys are strings).
type file map[string]map[string]map[string]Entry

// Observe records a project's whole list of keys: keys not seen before get
// now, keys no longer listed are forgotten. It returns the entries of keys.
// The project is known by its ID; entries recorded under its path (a key
// created with --project group/app) join them.
func (s *Store) Observe(host string, project int64, path string, keys []int64, now time.Time) (map[int64]Entry, error) {
	out := make(map[int64]Entry, len(keys))
	err := s.update(func(f file) bool { return f.observe(host, project, path, keys, now, out) })
	return out, err
}

// observe is Observe on f, filling out (when not nil); it reports a change.
func (f file) observe(host string, project int64, path string, keys []int64, now time.Time, out map[int64]Entry) bool {
	p := f.project(host, strconv.FormatInt(project, 10))
	changed := false
	if byPath, ok := f[host][pathKey(path)]; ok && path != "" {
		for k, e := range byPath {
			if old, ok := p[k]; !ok || e.Created || e.First.Before(old.First) {
				p[k] = e
			}
		}
		delete(f[host], pathKey(path))
		changed = true
	}
	listed := make(map[string]bool, len(keys))
	for _, id := range keys {
		k := strconv.FormatInt(id, 10)
		listed[k] = true
		if _, ok := p[k]; !ok && len(p) < maxPerProject {
			p[k] = Entry{First: now.UTC().Truncate(time.Second)}
			changed = true
		}
		if e, ok := p[k]; ok && out != nil {
			out[id] = e
		}
	}
	for k := range p {
		if !listed[k] {
			delete(p, k)
			changed = true
		}
	}
	return changed
}

// Created records a key errtrack has just created in the project known by
// its ID, or else by its path.
func (s *Store) Created(host string, project int64, path string, key int64, now time.Time) error {
	return s.update(func(f file) bool { return f.created(host, project, path, key, now) })
}

// created is Created on f; it reports a change.
func (f file) created(host string, project int64, path string, key int64, now time.Time) bool {
	id := strconv.FormatInt(project, 10)
	if project == 0 {
		id = pathKey(path)
	}
	p := f.project(host, id)
	if len(p) >= maxPerProject {
		return false
	}
	p[strconv.FormatInt(key, 10)] = Entry{First: now.UTC().Truncate(time.Second), Created: true}
	return true
}

// pathKey keeps paths apart from IDs among a host's projects.
func pathKey(path string) string { return "path:" + strings.ToLower(path) }

func (f file) project(host, k string) map[string]Entry {
	h := f[host]
	if h == nil {
		h = map[string]map[string]Entry{}
		f[host] = h
	}
	if h[k] == nil {
		h[k] = map[string]Entry{}
	}
	return h[k]
}

// update reads the file, lets change edit it and writes it back when change
// says it changed, all under the file's lock. An unreadable file starts
// afresh: ages are a help, not a record anything depends on.
func (s *Store) update(change func(file) bool) error {
	if err := os.MkdirAll(filepath.Dir(s.path), 0o700); err != nil {
		return err
	}
	unlock, err := filelock.Lock(s.path+".lock", 5*time.Second)
	if err != nil {
		return err
	}
	defer unlock()
	f, err := s.read()
	if err != nil {
		return err
	}
	if !change(f) {
		return nil
	}
	out, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return atomicfile.Write(s.path, out, 0o600)
}

// read is the file's content; a missing or corrupt file is empty.
func (s *Store) read() (file, error) {
	f := file{}
	b, err := os.ReadFile(s.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		if json.Unmarshal(b, &f) != nil {
			f = file{}
		}
	}
	return f, nil
}
