package workflow

import (
	"os"
	"path/filepath"
	"testing"
)

// What a journal records is on disk before Record returns: a run started
// again (a new process) reads it back; the last Forget removes the file.
func TestJournalSurvivesTheProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "journal.json")
	j, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Record(JournalEntry{ProjectID: 7, OldID: 901, Phase: PhaseCreating}); err != nil {
		t.Fatal(err)
	}
	if err := j.Record(JournalEntry{ProjectID: 1, OldID: 1, NewID: 4, Phase: PhaseCreated}); err != nil {
		t.Fatal(err)
	}
	again, err := OpenJournal(path)
	if err != nil || again.Pending() != 2 {
		t.Fatalf("reopened: %v, %d pending", err, again.Pending())
	}
	if e, ok := again.Entry(1); !ok || e.NewID != 4 || e.Phase != PhaseCreated {
		t.Fatalf("%+v", e)
	}
	if err := again.Forget(7); err != nil {
		t.Fatal(err)
	}
	third, _ := OpenJournal(path)
	if _, ok := third.Entry(7); ok || third.Pending() != 1 {
		t.Fatalf("forgotten entry read back: %d pending", third.Pending())
	}
	if err := third.Forget(1); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("an empty journal's file stays: %v", err)
	}
	if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
		t.Fatal("a temporary file was left")
	}
	// A journal that cannot be read is said, not taken for an empty one.
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte("{not json"), 0o600)
	if _, err := OpenJournal(path); err == nil {
		t.Fatal("an unreadable journal was taken for an empty one")
	}
	// A nil journal keeps nothing and fails nothing.
	var none *Journal
	if none.Record(JournalEntry{ProjectID: 1}) != nil || none.Forget(1) != nil || none.Pending() != 0 {
		t.Fatal("a nil journal misbehaved")
	}
}

// Two runs at once (the console and a command, or two commands) write one
// journal: each keeps the other's entries, and the file goes only when
// both are done.
func TestJournalSharedByTwoRuns(t *testing.T) {
	path := GroupJournalPath(t.TempDir(), "https://gitlab.example.com", "SENTRY_DSN")
	a, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Record(JournalEntry{ProjectID: 7, OldID: 901, Phase: PhaseCreating}); err != nil {
		t.Fatal(err)
	}
	if err := b.Record(JournalEntry{ProjectID: 1, OldID: 1, NewID: 4, Phase: PhaseCreated}); err != nil {
		t.Fatal(err)
	}
	if err := a.Forget(42); err != nil {
		t.Fatal(err)
	}
	third, err := OpenJournal(path)
	if err != nil || third.Pending() != 2 {
		t.Fatalf("%v: %d entries, want both runs' 2", err, third.Pending())
	}
	if _, ok := third.Entry(1); !ok {
		t.Fatal("the second run's entry was lost")
	}
	if err := a.Forget(7); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal("the file went while the other run had an entry in it")
	}
	if err := b.Forget(1); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the emptied journal stays: %v", err)
	}
}

// The journal's name is the host's and the variable's, made safe for a
// file name: the same for every group and front end.
func TestGroupJournalPath(t *testing.T) {
	got := GroupJournalPath("/state", "https://gitlab.example.com:8443/sub", "SENTRY_DSN")
	if want := filepath.Join("/state", "group-rotate-gitlab.example.com_8443_sub_SENTRY_DSN.json"); got != want {
		t.Fatalf("%s, want %s", got, want)
	}
}
