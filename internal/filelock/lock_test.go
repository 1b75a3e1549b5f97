package filelock

import (
	"errors"
	"path/filepath"
	"testing"
	"time"
)

// One holder at a time: a second Lock waits for the first to end, or
// gives up with ErrLocked when its wait is over.
func TestLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dir", "state.lock")
	unlock, err := Lock(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lock(path, 0); !errors.Is(err, ErrLocked) {
		t.Fatalf("a second lock: %v", err)
	}
	start := time.Now()
	if _, err := Lock(path, 100*time.Millisecond); !errors.Is(err, ErrLocked) || time.Since(start) < 100*time.Millisecond {
		t.Fatalf("a second lock gave up after %v: %v", time.Since(start), err)
	}
	go func() {
		time.Sleep(50 * time.Millisecond)
		unlock()
	}()
	again, err := Lock(path, 5*time.Second)
	if err != nil {
		t.Fatalf("not taken once released: %v", err)
	}
	again()
	again() // unlocking twice is harmless
}
