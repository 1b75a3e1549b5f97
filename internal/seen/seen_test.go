package seen

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func TestObserveAndCreated(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "keys-seen.json")
	s := Open(path)
	day1 := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	day2 := day1.AddDate(0, 0, 1)
	const h = "https://gitlab.example.com"
	got, err := s.Observe(h, 7, "", []int64{1, 2}, day1)
	if err != nil || got[1].First != day1 || got[2].First != day1 || got[1].Created {
		t.Fatalf("%v %+v", err, got)
	}
	if err := s.Created(h, 7, "", 3, day2); err != nil {
		t.Fatal(err)
	}
	// A later list keeps the first sightings, adds none for 3 (created),
	// and forgets 1, gone from the list.
	got, err = Open(path).Observe(h, 7, "", []int64{2, 3}, day2.AddDate(0, 0, 5))
	if err != nil || got[2].First != day1 || got[3].First != day2 || !got[3].Created {
		t.Fatalf("%v %+v", err, got)
	}
	got, _ = s.Observe(h, 7, "", []int64{1, 2, 3}, day2.AddDate(0, 0, 9))
	if got[1].First != day2.AddDate(0, 0, 9) {
		t.Fatalf("key 1 was forgotten, so it is new again: %+v", got[1])
	}
	// Another host's or project's keys are apart.
	if got, _ := s.Observe("https://other", 7, "", []int64{2}, day2); got[2].First != day2 {
		t.Fatalf("%+v", got)
	}
}

// A batch of creates touches the file once, when flushed, however many
// keys it holds (a group run's), and keeps every one of them beside what
// the file held.
func TestBatchWritesOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys-seen.json")
	s := Open(path)
	day := time.Date(2026, 11, 1, 10, 0, 0, 0, time.UTC)
	const h = "https://gitlab.example.com"
	if err := s.Created(h, 1, "", 10, day); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(path)
	b := s.Batch()
	for p := int64(2); p <= 500; p++ {
		b.Created(h, p, "", p*10, day)
	}
	// A list seen in the batch is answered from it, and kept.
	if got, err := b.Observe(h, 1, "", []int64{10, 11}, day.AddDate(0, 0, 1)); err != nil || !got[10].Created || got[11].First != day.AddDate(0, 0, 1) {
		t.Fatalf("%v %+v", err, got)
	}
	if now, _ := os.Stat(path); !os.SameFile(before, now) || now.ModTime() != before.ModTime() {
		t.Fatal("the file was written before the batch was flushed")
	}
	if err := b.Flush(); err != nil {
		t.Fatal(err)
	}
	if got, _ := Open(path).Observe(h, 1, "", []int64{10, 11}, day.AddDate(0, 0, 9)); got[11].First != day.AddDate(0, 0, 1) {
		t.Fatalf("the batch's sighting of key 11 was not kept: %+v", got)
	}
	for _, p := range []int64{1, 2, 500} {
		got, err := Open(path).Observe(h, p, "", []int64{p * 10}, day.AddDate(0, 0, 3))
		if err != nil || got[p*10].First != day || !got[p*10].Created {
			t.Fatalf("project %d: %v %+v", p, err, got)
		}
	}
}

// An unreadable file starts afresh; two processes (here goroutines with
// their own Store) do not lose each other's entries.
func TestCorruptFileAndConcurrency(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys-seen.json")
	os.WriteFile(path, []byte("{not json"), 0o600)
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := Open(path).Created("h", 1, "", int64(i+1), now); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, err := Open(path).Observe("h", 1, "", []int64{1, 2, 3, 4, 5, 6, 7, 8}, now.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for id := int64(1); id <= 8; id++ {
		if !got[id].Created {
			t.Fatalf("key %d lost: %+v", id, got)
		}
	}
}

// A key created by path joins the project's entries once an audit knows
// the project's ID.
func TestCreatedByPath(t *testing.T) {
	s := Open(filepath.Join(t.TempDir(), "keys-seen.json"))
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	if err := s.Created("h", 0, "Demo/Web-Shop", 4, day); err != nil {
		t.Fatal(err)
	}
	got, err := s.Observe("h", 1, "demo/web-shop", []int64{1, 4}, day.AddDate(0, 0, 2))
	if err != nil || !got[4].Created || got[4].First != day || got[1].Created {
		t.Fatalf("%v %+v", err, got)
	}
}
