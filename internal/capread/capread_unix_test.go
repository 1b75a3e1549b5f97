//go:build unix

package capread

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestDeviceRefused(t *testing.T) {
	if _, err := ReadFile("/dev/zero", 1<<20); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("err = %v", err)
	}
}

// A FIFO nobody writes to must not block the open or the read.
func TestFIFODoesNotHang(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := ReadFile(p, 1<<20); done <- err }()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) {
			t.Fatalf("err = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO hung")
	}
}
