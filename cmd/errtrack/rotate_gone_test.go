package main

import (
	"context"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// keys rotate going on with an unfinished rotation whose new key was
// deleted in GitLab's UI: it says to run the command with --restart, and
// neither prints a DSN nor says it "goes on with" the key that is gone.
func TestRotateWithAGoneNewKeyOffersRestart(t *testing.T) {
	c := newCLI(t, nil)
	c.run("", "keys", "rotate", "-p", "demo/web-shop", "--old", "1", "--yes", "--delete-with-unread-groups").must(t, 1, "Both keys exist: new key 4")
	gc, err := apiclient.New(c.url, mockserver.TokenMaintainer)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := gc.DeleteClientKey(context.Background(), apiclient.ProjectID(1), 4); err != nil {
		t.Fatal(err)
	}
	r := c.run("", "keys", "rotate", "-p", "demo/web-shop", "--old", "1", "--yes", "--delete-with-unread-groups", "--update-variables")
	r.must(t, 1, "Key 4, made by the unfinished rotation of key 1", "Run the same command with --restart")
	if strings.TrimSpace(r.stdout) != "" || strings.Contains(r.stderr, "goes on with key 4") {
		t.Fatalf("stdout %q\nstderr %s", r.stdout, r.stderr)
	}
	c.run("", "keys", "rotate", "-p", "demo/web-shop", "--old", "1", "--yes", "--delete-with-unread-groups", "--update-variables", "--restart").must(t, 0, "Rotated: new key 5 replaces key 1")
}
