package mockserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"net/http"
	"os"
	"path/filepath"
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
