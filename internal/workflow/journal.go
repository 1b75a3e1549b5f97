package workflow

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/errtrack/errtrack/internal/filelock"
)

// A journal keeps, across runs, what a group change did to each project
// before the next step: written before each create and after it, so a run
// interrupted (Ctrl+C, a crash, a lost network) and started again goes on
// where it stopped and never creates a project's key twice.

// Journal phases.
const (
	PhaseCreating = "creating" // the create was sent; its answer may be lost
	PhaseCreated  = "created"  // the new key exists; the old one is still there
	// PhaseDone: the project is rotated, but the rotation is not finished
	// everywhere: a run started again leaves the project alone, so that no
	// project gets two new keys. The entries go once a run ends with no
	// project failed and none unfinished.
	PhaseDone = "done"
	// PhasePlanned: a run set out to rotate the project and has not sent
	// its create (or surely made none). It keeps the journal open, so the
	// projects already rotated are not rotated again by a run that covers
	// only some of the others.
	PhasePlanned = "planned"
)

// ErrRunUnderWay: another run rotates the keys of the same variable on the
// same host now.
var ErrRunUnderWay = errors.New("another errtrack run is rotating the keys this variable holds on this GitLab")

// ErrJournalChanged: another run changed the journal between this run's
// plan and its start.
var ErrJournalChanged = errors.New("another errtrack run changed the rotation's journal since this plan was made")

// JournalEntry is one project's rotation in a group rotation that has not
// finished.
type JournalEntry struct {
	ProjectID int64  `json:"project_id"`
	OldID     int64  `json:"old_key_id"`
	NewID     int64  `json:"new_key_id,omitempty"`
	Phase     string `json:"phase"`
	// Before are the project's key IDs before the create: a key not among
	// them, found after a create whose answer was lost, is the one it made.
	Before []int64 `json:"key_ids_before,omitempty"`
}

// One journal per host and variable serves every front end and every
// group: the command line's group rotations and the console's rotations of
// marked projects read and write the same file, so a rotation interrupted
// in one goes on in the other (a project is in one journal whatever group
// or marks named it). Each Record and Forget changes its one entry in the
// file as it is on disk, under a lock, so two runs at once keep each
// other's entries.

// journalLockWait bounds the wait for another run writing the journal.
const journalLockWait = 5 * time.Second

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

// GroupJournalPath is the journal of the rotations of the keys variable
// holds on host, in the state directory dir.
func GroupJournalPath(dir, host, variable string) string {
	h := strings.TrimPrefix(strings.TrimPrefix(host, "https://"), "http://")
	return filepath.Join(dir, "group-rotate-"+unsafeName.ReplaceAllString(h+"_"+variable, "_")+".json")
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
	entries, err := readJournal(path)
	if err != nil {
		return nil, err
	}
	return &Journal{path: path, entries: entries}, nil
}

// readJournal reads the entries on disk: none when there is no file.
func readJournal(path string) (map[int64]JournalEntry, error) {
	entries := map[int64]JournalEntry{}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return entries, nil
	}
	if err != nil {
		return nil, err
	}
	var list []JournalEntry
	if err := json.Unmarshal(b, &list); err != nil {
		return nil, errors.New("the journal " + path + " is not readable: " + err.Error())
	}
	for _, e := range list {
		entries[e.ProjectID] = e
	}
	return entries, nil
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

// Unfinished counts the entries of projects whose rotation is under way
// (a create sent or made, the old key still there).
func (j *Journal) Unfinished() int {
	if j == nil {
		return 0
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	n := 0
	for _, e := range j.entries {
		if e.Phase == PhaseCreating || e.Phase == PhaseCreated {
			n++
		}
	}
	return n
}

// lockRun takes the journal's run lock, held for a whole run: two runs of
// one journal at once could each rotate the same project.
func (j *Journal) lockRun() (func(), error) {
	if j == nil {
		return func() {}, nil
	}
	unlock, err := filelock.Lock(j.path+".run", 0)
	if err != nil {
		return nil, fmt.Errorf("%w (%s.run is locked): wait for it to end, then plan again", ErrRunUnderWay, j.path)
	}
	return unlock, nil
}

// closeRun forgets the rotated projects once no project's rotation is
// under way: the rotation is finished, and the next run rotates them again.
func (j *Journal) closeRun() error {
	if j == nil {
		return nil
	}
	return j.change(func(m map[int64]JournalEntry) {
		for _, e := range m {
			if e.Phase != PhaseDone {
				return
			}
		}
		clear(m)
	})
}

// Restart starts a new rotation: the projects earlier runs rotated or set
// out to rotate are forgotten; a key a run made and did not finish with
// stays recorded (a create is never made twice). Done under the run lock.
func (j *Journal) Restart() error {
	if j == nil {
		return nil
	}
	release, err := j.lockRun()
	if err != nil {
		return err
	}
	defer release()
	return j.change(func(m map[int64]JournalEntry) {
		for id, e := range m {
			if e.Phase == PhaseDone || e.Phase == PhasePlanned {
				delete(m, id)
			}
		}
	})
}

// Outside are the entries of projects not among ids: projects an earlier
// run recorded that this one does not reach.
func (j *Journal) Outside(ids map[int64]bool) []JournalEntry {
	if j == nil {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []JournalEntry
	for id, e := range j.entries {
		if !ids[id] {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b JournalEntry) int { return cmp.Compare(a.ProjectID, b.ProjectID) })
	return out
}

// Entry is the project's entry, if any.
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
	return j.change(func(m map[int64]JournalEntry) { m[e.ProjectID] = e })
}

// Forget removes a finished project; an empty journal's file goes.
func (j *Journal) Forget(projectID int64) error {
	if j == nil {
		return nil
	}
	return j.change(func(m map[int64]JournalEntry) { delete(m, projectID) })
}

// change applies f to the entries on disk, under the file's lock, and
// writes them back: what another run recorded meanwhile stays.
func (j *Journal) change(f func(map[int64]JournalEntry)) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	unlock, err := filelock.Lock(j.path+".lock", journalLockWait)
	if err != nil {
		return err
	}
	defer unlock()
	entries, err := readJournal(j.path)
	if err != nil {
		return err
	}
	f(entries)
	j.entries = entries
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
