package capread

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestRegularFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte("hello"), 0o600)
	b, err := ReadFile(p, 10)
	if err != nil || string(b) != "hello" {
		t.Fatal(b, err)
	}
	if _, err := ReadFile(p, 4); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v", err)
	}
}

func TestDirectoryRefused(t *testing.T) {
	if _, err := ReadFile(t.TempDir(), 10); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("err = %v", err)
	}
}
