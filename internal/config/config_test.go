package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
		c.AddRecent(c.LastHost, Recent{ID: int64(i + 1), Path: "g/p" + string(rune('a'+i))})
	}
	c.AddRecent(c.LastHost, Recent{ID: 3, Path: "g/pc"})
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
	if len(r) != MaxRecent || r[0] != (Recent{3, "g/pc"}) || r[1].Path != "g/pl" {
		t.Fatalf("recent %v", r)
	}
}

// A project is recorded once, by ID and path: opened by ID, then by path
// (or renamed), it stays one entry.
func TestRecentOnce(t *testing.T) {
	c := &Config{}
	c.AddRecent("h", Recent{ID: 3, Path: "demo/legacy-api"})
	c.AddRecent("h", Recent{ID: 1, Path: "demo/web-shop"})
	c.AddRecent("h", Recent{ID: 3, Path: "demo/legacy-api-renamed"})
	c.AddRecent("h", Recent{Path: "demo/web-shop"})
	if r := c.Recent["h"]; len(r) != 2 || r[0] != (Recent{1, "demo/web-shop"}) || r[1] != (Recent{3, "demo/legacy-api-renamed"}) {
		t.Fatalf("recent %v", r)
	}
	c.ForgetRecent("h", Recent{ID: 3})
	if r := c.Recent["h"]; len(r) != 1 {
		t.Fatalf("recent %v", r)
	}
}

// The first format kept bare paths; they still load.
func TestOldRecentFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	os.WriteFile(path, []byte(`{"last_host":"https://h","recent_projects":{"https://h":["g/a",{"id":4,"path":"g/b"}]}}`), 0o600)
	c, err := Load(path)
	if err != nil || len(c.Recent["https://h"]) != 2 || c.Recent["https://h"][0] != (Recent{Path: "g/a"}) || c.Recent["https://h"][1].ID != 4 {
		t.Fatal(c, err)
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

// Commands running at once each keep the others' changes: every update
// is a read-change-write under the file's lock.
func TestUpdateConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := Update(path, func(c *Config) bool {
				if c.CAFiles == nil {
					c.CAFiles = map[string]string{}
				}
				c.CAFiles[fmt.Sprintf("https://h%d", i)] = fmt.Sprintf("/ca%d.pem", i)
				return true
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	c, err := Load(path)
	if err != nil || len(c.CAFiles) != 8 {
		t.Fatalf("%d CA files kept of 8: %v", len(c.CAFiles), err)
	}
}
