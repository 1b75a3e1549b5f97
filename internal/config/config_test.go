package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "config.json")
	c, err := Load(path)
	if err != nil || c.LastHost != "" {
		t.Fatal(c, err)
	}
	c.LastHost = "https://gitlab.example.com"
	for i := 0; i < 12; i++ {
		c.AddRecent(c.LastHost, "g/p"+string(rune('a'+i)))
	}
	c.AddRecent(c.LastHost, "g/pc")
	if err := c.Save(path); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", st.Mode())
	}
	got, err := Load(path)
	if err != nil || got.LastHost != c.LastHost {
		t.Fatal(got, err)
	}
	r := got.Recent[c.LastHost]
	if len(r) != MaxRecent || r[0] != "g/pc" || r[1] != "g/pl" {
		t.Fatalf("recent %v", r)
	}
}

func TestCorruptSetAside(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	os.WriteFile(path, []byte("{not json"), 0o600)
	c, err := Load(path)
	var ce *CorruptError
	if !errors.As(err, &ce) || c == nil || !strings.Contains(err.Error(), "moved to") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(ce.MovedTo); err != nil {
		t.Fatal("corrupt file not kept:", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("corrupt file still in place")
	}
}
