package mockserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
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

// removeStaleTemps deletes temporary files a killed server left beside its
// state file; the state file itself is always whole.
func removeStaleTemps(statePath string) {
	old, _ := filepath.Glob(filepath.Join(filepath.Dir(statePath), tempPrefix+"*"))
	for _, f := range old {
		os.Remove(f)
	}
}

const tempPrefix = ".mockserver-state-"

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
	f, err := os.CreateTemp(dir, tempPrefix+"*")
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

func (s *Server) persistQuietly() {
	if err := s.persist(); err != nil {
		log.Printf("mockserver: saving state: %v", err)
	}
}
