package projectpath

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// A path remembered is found again by host and ID, replaced when it
// changes, and a corrupt file reads as empty and is rewritten.
func TestRememberLookup(t *testing.T) {
	f := filepath.Join(t.TempDir(), "state", "project-paths.json")
	s := Open(f)
	if got := s.Lookup("https://h", 1); got != "" {
		t.Fatalf("empty store gave %q", got)
	}
	if err := s.Remember("https://h", 1, "g/app"); err != nil {
		t.Fatal(err)
	}
	if err := s.Remember("https://other", 1, "x/y"); err != nil {
		t.Fatal(err)
	}
	if got := Open(f).Lookup("https://h", 1); got != "g/app" {
		t.Fatalf("got %q", got)
	}
	if err := s.Remember("https://h", 1, "g/moved"); err != nil || s.Lookup("https://h", 1) != "g/moved" || s.Lookup("https://other", 1) != "x/y" {
		t.Fatalf("after a move: %q, %v", s.Lookup("https://h", 1), err)
	}
	if err := os.WriteFile(f, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := s.Lookup("https://h", 1); got != "" {
		t.Fatalf("corrupt file gave %q", got)
	}
	if err := s.Remember("https://h", 2, "g/b"); err != nil || s.Lookup("https://h", 2) != "g/b" {
		t.Fatalf("not rewritten: %v", err)
	}
}

// A host's entries stay bounded.
func TestBounded(t *testing.T) {
	defer func(n int) { maxPerHost = n }(maxPerHost)
	maxPerHost = 20
	s := Open(filepath.Join(t.TempDir(), "p.json"))
	for id := int64(1); id <= int64(maxPerHost)+5; id++ {
		if err := s.Remember("https://h", id, "g/p"); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(s.read()["https://h"]); n > maxPerHost {
		t.Fatalf("%d entries", n)
	}
	if s.Lookup("https://h", int64(maxPerHost)+5) != "g/p" {
		t.Fatal("the newest entry was dropped")
	}
}

// A batch answers from one read of the file and writes what it learnt in
// one update, keeping what the file held.
func TestBatchWritesOnce(t *testing.T) {
	f := filepath.Join(t.TempDir(), "project-paths.json")
	s := Open(f)
	if err := s.Remember("https://h", 1, "g/one"); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(f)
	b := s.Batch()
	for id := int64(2); id <= 300; id++ {
		b.Remember("https://h", id, fmt.Sprintf("g/p%d", id))
	}
	if b.Lookup("https://h", 1) != "g/one" || b.Lookup("https://h", 7) != "g/p7" {
		t.Fatal("the batch does not answer what it holds")
	}
	if now, _ := os.Stat(f); !os.SameFile(before, now) {
		t.Fatal("the file was written before the batch was flushed")
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if Open(f).Lookup("https://h", 1) != "g/one" || Open(f).Lookup("https://h", 300) != "g/p300" {
		t.Fatal("the batch's paths, or the file's, were lost")
	}
}
