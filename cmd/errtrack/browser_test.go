package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// --web opens the project's error tracking settings page with $BROWSER;
// over SSH without one it prints the address.
func TestKeysListWeb(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	record := filepath.Join(dir, "url")
	browser := filepath.Join(dir, "browser")
	if err := os.WriteFile(browser, []byte("#!/bin/sh\nprintf '%s' \"$1\" > "+record+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c := newCLI(t, nil)
	c.env["BROWSER"] = browser
	c.run("", "keys", "list", "-p", "1", "--web").must(t, 0, "Opened")
	var got []byte
	for i := 0; i < 100 && len(got) == 0; i++ {
		time.Sleep(20 * time.Millisecond)
		got, _ = os.ReadFile(record)
	}
	if want := c.url + "/demo/web-shop/-/settings/operations#js-error-tracking-settings"; string(got) != want {
		t.Fatalf("browser got %q, want %q", got, want)
	}
	delete(c.env, "BROWSER")
	c.env["SSH_CONNECTION"] = "10.0.0.1 22 10.0.0.2 22"
	c.run("", "keys", "list", "-p", "1", "--web").must(t, 0, "Open in your browser: "+c.url+"/demo/web-shop/-/settings/operations")
	c.run("", "settings", "get", "-p", "3", "--web").must(t, 0, "Open in your browser: "+c.url+"/demo/legacy-api/-/settings/operations")
}
