package main

import (
	"strings"
	"testing"
)

// The console shows where you are, in the built binary: back from a
// project the cursor is on it (enter opens it again), the filter typed to
// find it is gone, and a message about it goes when another project opens.
func TestConsoleTruthInTmux(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	s := newTmux(t)
	s.tmux("respawn-pane", "-k", "-t", "e2e", bin+" --demo; echo EXITED rc=$?; sleep 30")
	s.waitFor("demo/legacy-api")
	s.keys("Down", "Enter") // the second row
	s.waitFor("Settings")
	title := strings.SplitN(strings.TrimSpace(s.screen()), "\n", 2)[0]
	s.keys("Escape")
	s.waitFor("Projects you maintain")
	s.keys("Enter")
	s.waitFor("Settings")
	if again := strings.SplitN(strings.TrimSpace(s.screen()), "\n", 2)[0]; again != title {
		t.Fatalf("back and enter opened %q, not %q", again, title)
	}
	s.keys("Escape")
	s.waitFor("Projects you maintain")
	s.keys("/", "w", "e", "b", "Enter")
	s.waitFor("Client keys (2)")
	s.keys("n")
	s.waitFor("Created client key 4")
	s.keys("Escape")
	s.waitFor("Projects you maintain")
	if strings.Contains(s.screen(), "/ web") {
		t.Fatalf("the filter was kept:\n%s", s.screen())
	}
	s.keys("/", "p", "a", "u", "Enter")
	s.waitFor("demo/paused")
	s.waitGone("Created client key 4")
	s.keys("C-c")
	s.waitFor("EXITED")
}
