package workflow

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// A journal keeps, across runs, what a group change did to each project
// before the next step: written before each create and after it, so a run
// interrupted (Ctrl+C, a crash, a lost network) and started again goes on
// where it stopped and never creates a project's key twice.

// Journal phases.
const (
	PhaseCreating = "creating" // the create was sent; its answer may be lost
	PhaseCreated  = "created"  // the new key exists; the old one is still there
)

// JournalEntry is one project's unfinished rotation.
type JournalEntry struct {
	ProjectID int64  `json:"project_id"`
	OldID     int64  `json:"old_key_id"`
	NewID     int64  `json:"new_key_id,omitempty"`
	Phase     string `json:"phase"`
}

// Journal is a file of entries, one per project; a nil *Journal keeps
// nothing.
type Journal struct {
	path    string
	mu      sync.Mutex
	entries map[int64]JournalEntry
}

// OpenJournal reads the journal at path (none yet is an empty one).
func OpenJournal(path string) (*Journal, error) {
	j := &Journal{path: path, entries: map[int64]JournalEntry{}}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return j, nil
	}
	if err != nil {
		return nil, err
	}
	var list []JournalEntry
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, errors.New("the journal " + path + " is not readable: " + err.Error())
	}
	for _, e := range list {
		j.entries[e.ProjectID] = e
	}
	return j, nil
}

// Pending counts the unfinished projects.
func (j *Journal) Pending() int {
	if j == nil {
		return 0
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return len(j.entries)
}

// Entry is the project's unfinished rotation, if any.
func (j *Journal) Entry(projectID int64) (JournalEntry, bool) {
	if j == nil {
		return JournalEntry{}, false
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	e, ok := j.entries[projectID]
	return e, ok
}

// Record writes e to the file before returning.
func (j *Journal) Record(e JournalEntry) error {
	if j == nil {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries[e.ProjectID] = e
	return j.save()
}

// Forget removes a finished project; an empty journal's file goes.
func (j *Journal) Forget(projectID int64) error {
	if j == nil {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	delete(j.entries, projectID)
	return j.save()
}

func (j *Journal) save() error {
	if len(j.entries) == 0 {
		err := os.Remove(j.path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	list := make([]JournalEntry, 0, len(j.entries))
	for _, e := range j.entries {
		list = append(list, e)
	}
	b, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(j.path), 0o700); err != nil {
		return err
	}
	tmp := j.path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, j.path)
	}
	return err
}
