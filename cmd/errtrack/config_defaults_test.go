package main

import (
	"testing"
)

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
