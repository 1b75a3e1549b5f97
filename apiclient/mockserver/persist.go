package mockserver

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// loadState reads a state file; a missing file gives nil, nil.
func loadState(path string) (*state, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading state file: %w", err)
	}
	var st state
	if err := json.Unmarshal(b, &st); err != nil {
		return nil, fmt.Errorf("state file %s is not valid (%v): move it away to start from the seed", path, err)
	}
	if st.Tokens == nil {
		st.Tokens = map[string]Token{}
	}
	st.index()
	if err := st.replay(journalPath(path)); err != nil {
		return nil, err
	}
	return &st, nil
}

// removeStaleTemps deletes the temporary files a killed server of the same
// state file left behind: named after the state file and the writer's PID,
// they are removed only when that process is gone. Another server running
// on the same file, or on another file in the folder, keeps its own.
func removeStaleTemps(statePath string) {
	dir := filepath.Dir(statePath)
	entries, _ := os.ReadDir(dir) // not a glob: the file's name may hold [ or *
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), tempPattern(statePath))
		if !ok {
			continue
		}
		pid, err := strconv.Atoi(strings.SplitN(rest, "-", 2)[0])
		if err != nil || pid == os.Getpid() || processAlive(pid) {
			continue
		}
		os.Remove(filepath.Join(dir, e.Name()))
	}
}

const tempPrefix = ".mockserver-state-"

// tempPattern is the start of this state file's temporary files; the PID
// of the writer follows.
func tempPattern(statePath string) string {
	return tempPrefix + filepath.Base(statePath) + "-"
}

// persist writes the state atomically: a temporary file in the same folder,
// synced, then renamed over the old one, so a crash leaves the old or the new
// file and never half of one.
func (s *Server) persist() error {
	if s.opts.StatePath == "" {
		return nil
	}
	s.persistMu.Lock()
	defer s.persistMu.Unlock()
	s.mu.RLock()
	ver := s.version
	if ver != 0 && ver <= s.persistVer {
		s.mu.RUnlock()
		return nil
	}
	s.st.Version = ver // read by this marshal only, which persistMu serializes
	b, err := json.Marshal(s.st)
	s.mu.RUnlock()
	if err != nil {
		return err
	}
	dir := filepath.Dir(s.opts.StatePath)
	f, err := os.CreateTemp(dir, tempPattern(s.opts.StatePath)+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, s.opts.StatePath)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	s.persistVer = ver
	// Every record is in the state file now; a crash before this leaves
	// records replay skips (their version is in the file).
	if err := os.Remove(journalPath(s.opts.StatePath)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	s.journalN = 0
	return nil
}

// persisted saves a change before it is acknowledged: when the state file
// cannot be written (a full disk), the client gets a 500, not a success the
// next start would not remember.
func (s *Server) persisted(w http.ResponseWriter) bool {
	if err := s.persist(); err != nil {
		log.Printf("mockserver: saving state: %v", err)
		writeJSON(w, http.StatusInternalServerError, map[string]string{"message": "500 Internal Server Error"})
		return false
	}
	return true
}

func (s *Server) persistQuietly() {
	if err := s.persist(); err != nil {
		log.Printf("mockserver: saving state: %v", err)
	}
}

// A write to a project or a group is saved as one record appended to the
// journal next to the state file, synced before the write is acknowledged:
// at 100,000 keys, rewriting the whole state for every create took 23 ms.
// Every maxJournal records the state file is rewritten whole and the
// journal emptied. A start reads the state file, then replays the records
// it does not hold yet; a last line cut short (a crash mid-append) is
// ignored: its write was never acknowledged.

// maxJournal is how many records the journal holds before compaction.
var maxJournal = 1000

func journalPath(statePath string) string { return statePath + ".journal" }

// journalRecord is one acknowledged write: what it left of the project or
// group it changed, and the next key ID.
type journalRecord struct {
	V         uint64         `json:"v"`
	NextKeyID int64          `json:"next_key_id"`
	Project   *projectRecord `json:"project,omitempty"`
	Group     *groupRecord   `json:"group,omitempty"`
}

// projectRecord is a project as the write left it, but for its keys: the
// ones it added and removed (a project may hold 100,000).
type projectRecord struct {
	Meta    Project     `json:"meta"`
	Added   []ClientKey `json:"added,omitempty"`
	Removed []int64     `json:"removed,omitempty"`
}

type groupRecord struct {
	ID        int64      `json:"id"`
	Variables []Variable `json:"variables"`
}

// projectChange records p as a write left it; call under s.mu.
func (s *Server) projectChange(p *Project, added []ClientKey, removed ...int64) journalRecord {
	meta := *p
	meta.Keys = nil
	meta.Members = maps.Clone(p.Members)
	meta.Variables = slices.Clone(p.Variables)
	meta.Retired = slices.Clone(p.Retired)
	meta.SharedWith = slices.Clone(p.SharedWith)
	return journalRecord{V: s.version, NextKeyID: s.st.NextKeyID, Project: &projectRecord{Meta: meta, Added: slices.Clone(added), Removed: removed}}
}

// groupChange records g's variables as a write left them; call under s.mu.
func (s *Server) groupChange(g *Group) journalRecord {
	return journalRecord{V: s.version, NextKeyID: s.st.NextKeyID, Group: &groupRecord{ID: g.ID, Variables: slices.Clone(g.Variables)}}
}

// saved appends rec to the journal before the write is acknowledged; when
// it cannot be kept the client gets a 500, not a success the next start
// would not remember.
func (s *Server) saved(w http.ResponseWriter, rec journalRecord) bool {
	if err := s.appendJournal(rec); err != nil {
		log.Printf("mockserver: saving state: %v", err)
		writeJSON(w, http.StatusInternalServerError, map[string]string{"message": "500 Internal Server Error"})
		return false
	}
	return true
}

func (s *Server) appendJournal(rec journalRecord) error {
	if s.opts.StatePath == "" {
		return nil
	}
	s.persistMu.Lock()
	n := s.journalN
	s.persistMu.Unlock()
	if n >= maxJournal {
		return s.persist() // the state holds this write already
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	s.persistMu.Lock()
	defer s.persistMu.Unlock()
	if rec.V <= s.persistVer {
		return nil // a compaction since has it
	}
	f, err := os.OpenFile(journalPath(s.opts.StatePath), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		s.journalN++
	}
	return err
}

// replay applies the journal's records the state does not hold yet, in
// version order.
func (st *state) replay(path string) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading the state journal: %w", err)
	}
	lines := strings.Split(string(b), "\n")
	var recs []journalRecord
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		var r journalRecord
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			if i == len(lines)-1 { // cut short by a crash mid-append: never acknowledged
				break
			}
			return fmt.Errorf("state journal %s is not valid at line %d (%v): move it and the state file away to start from the seed", path, i+1, err)
		}
		if r.V > st.Version {
			recs = append(recs, r)
		}
	}
	slices.SortStableFunc(recs, func(a, b journalRecord) int { return cmp.Compare(a.V, b.V) })
	for _, r := range recs {
		st.apply(r)
		st.Version = r.V
	}
	st.index()
	return nil
}

func (st *state) apply(r journalRecord) {
	st.NextKeyID = max(st.NextKeyID, r.NextKeyID)
	if pr := r.Project; pr != nil {
		for _, p := range st.Projects {
			if p.ID != pr.Meta.ID {
				continue
			}
			keys := slices.DeleteFunc(p.Keys, func(k ClientKey) bool { return slices.Contains(pr.Removed, k.ID) })
			for _, k := range pr.Added {
				if !slices.ContainsFunc(keys, func(o ClientKey) bool { return o.ID == k.ID }) {
					keys = append(keys, k)
				}
			}
			*p = pr.Meta
			p.Keys = keys
		}
	}
	if gr := r.Group; gr != nil {
		for _, g := range st.Groups {
			if g.ID == gr.ID {
				g.Variables = gr.Variables
			}
		}
	}
}
