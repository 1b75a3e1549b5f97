//go:build unix

package main

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// --input FIFO with no writer: opening it blocks, and --timeout still ends
// the command, naming the file.
func TestAPIInputFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "body")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	h, n := counting(t)
	c := newCLI(t, h)
	r := timed(t, 10*time.Second, func() result {
		return c.run("", "api", "-X", "POST", "projects/1/variables", "--input", fifo, "--timeout", "500ms")
	})
	r.must(t, 1, "--input: "+fifo+" gave no complete body within --timeout (500ms)", "FIFO")
	if n.Load() != 0 {
		t.Fatalf("%d requests sent", n.Load())
	}
}
