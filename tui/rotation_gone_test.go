package tui

import (
	"context"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
)

// An unfinished rotation whose new key was deleted in GitLab's UI: going on
// with it stops at the check and says the console's way to start again (R,
// then m: make a new key), never "run the same command again".
func TestGoingOnWithAGoneNewKeySaysHowToRestart(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "1", Rotations: testRotations(t, g.url)})
	h.key("down", "R") // key 2: no variable holds its DSN
	h.mustSee("New key 4 created in demo/web-shop. Delete old key 2?")
	h.key("n") // both keys stay: the rotation stays open
	if _, _, err := g.api.DeleteClientKey(context.Background(), apiclient.ProjectID(1), 4); err != nil {
		t.Fatal(err)
	}
	h.key("r")
	h.mustSee("Client keys (2)")
	h.key("home", "down", "R") // key 2 again
	h.mustSee("Go on with key 4")
	h.key("y")
	h.mustSay("Key 4, made by the unfinished rotation of key 2", "Press R on the old key again and answer m")
	h.mustNotSee("run the same command again")
	if g.srv.KeyCount(1) != 2 {
		t.Fatalf("keys %v", g.srv.Keys(1))
	}
}
