package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestConfigCommand(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "config", "set", "host", "gitlab.example.com").must(t, 0)
	c.run("", "config", "get", "host").must(t, 0, "https://gitlab.example.com")
	ca := filepath.Join(t.TempDir(), "ca.pem")
	os.WriteFile(ca, []byte("x"), 0o600)
	c.run("", "config", "set", "ca-file", ca).must(t, 0)
	c.run("", "config", "get", "ca-file").must(t, 0, ca)
	c.run("", "config", "list").must(t, 0, "host=https://gitlab.example.com", "ca-file[https://gitlab.example.com]="+ca)
	c.run("", "config", "set", "ca-file", "/nonexistent").must(t, 2, "not a readable file")
	c.run("", "config", "get", "colour").must(t, 2, "not a setting")
	c.run("", "config", "set", "host", "https://user@evil").must(t, 2)
}

// The console's keys: set, read and listed by errtrack config, checked when
// set and again when the console starts (a file edited by hand).
func TestConfigKeys(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "config", "get", "keys.rotate").must(t, 0, "R")
	c.run("", "config", "set", "keys.rotate", "x, ctrl+e").must(t, 0)
	c.run("", "config", "get", "keys.rotate").must(t, 0, "x,ctrl+e")
	c.run("", "config", "list").must(t, 0, "keys.rotate=x,ctrl+e")
	c.run("", "config", "set", "keys.copy", "x").must(t, 2, `keys.copy: "x" is bound to both rotate and copy`)
	c.run("", "config", "set", "keys.launch", "z").must(t, 2, "not an action that can be rebound")
	c.run("", "config", "get", "keys.copy").must(t, 0, "c")
	// Edited by hand into something invalid: the console refuses to start,
	// naming the file and the entry.
	path := c.cfg
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, []byte(strings.Replace(string(b), `"x"`, `"enter"`, 1)), 0o600)
	c.run("", "--demo").must(t, 2, "config file "+path, `keys.rotate: "enter" is reserved`, "Fix the entry or remove it")
}

// config set host sets the default host: a --host used later does not
// replace it (the last host used is kept apart, and serves only where no
// default is set); set to "" it goes back to the last host used.
func TestConfigHostIsADefault(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "config", "set", "host", "gitlab.example.com").must(t, 0)
	delete(c.env, "GITLAB_HOST")
	c.run("", "keys", "list", "-p", "1", "--host", c.url).must(t, 0, "glet_")
	c.run("", "config", "get", "host").must(t, 0, "https://gitlab.example.com")
	c.run("", "config", "list").must(t, 0, "host=https://gitlab.example.com", "# last host used: "+c.url)
	c.run("", "config", "set", "host", "").must(t, 0)
	c.run("", "config", "get", "host").must(t, 0, c.url)
	c.run("", "keys", "list", "-p", "1").must(t, 0, "glet_") // the last host used
}

// A key bound to two actions is named from the entry being set.
func TestConfigKeysConflictNamesTheEntrySet(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "config", "set", "keys.rotate", "x").must(t, 0)
	r := c.run("", "config", "set", "keys.delete", "x")
	r.must(t, 2, `keys.delete: "x" is bound to both rotate and delete`)
}

// The console's palette: set, read, refused when it is not one.
func TestConfigTheme(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "config", "get", "theme").must(t, 0, "auto")
	c.run("", "config", "set", "theme", "Light").must(t, 0)
	c.run("", "config", "get", "theme").must(t, 0, "light")
	c.run("", "config", "list").must(t, 0, "theme=light")
	c.run("", "config", "set", "theme", "sepia").must(t, 2, "light, dark or auto")
}
