package mockserver

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestStatePersists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s1, ts1 := newTest(t, Options{StatePath: path})
	do(t, ts1, "POST", keys1, TokenMaintainer)
	do(t, ts1, "DELETE", keys1+"/1", TokenMaintainer)
	want := s1.Keys(1)
	s2, err := New(Options{StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	got := s2.Keys(1)
	if len(got) != len(want) || got[0] != want[0] || got[len(got)-1] != want[len(want)-1] {
		t.Fatalf("reloaded %v, want %v", got, want)
	}
	if err := os.WriteFile(path, []byte("{half"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{StatePath: path}); err == nil || !strings.Contains(err.Error(), "not valid") {
		t.Fatalf("corrupt state: %v", err)
	}
}

// Start-up removes the temporary files a killed server of the same state
// file left, and only those: another live server's stay.
func TestStaleTempsOnlyOurs(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	dead := filepath.Join(dir, tempPattern(state)+"999999999-1")                   // no such process
	live := filepath.Join(dir, tempPattern(state)+strconv.Itoa(os.Getppid())+"-1") // a running process
	other := filepath.Join(dir, tempPattern(filepath.Join(dir, "other.json"))+"999999999-1")
	for _, f := range []string{dead, live, other} {
		os.WriteFile(f, []byte("{}"), 0o600)
	}
	if _, err := New(Options{StatePath: state}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Fatal("a dead server's temporary file was kept")
	}
	for _, f := range []string{live, other} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s was removed: another server's acknowledged writes would be lost", filepath.Base(f))
		}
	}
}
