package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The console's habits, in the built binary: a key rebound in the config
// file works and ? shows it; where each DSN is used shows in the keys pane;
// F and D show the findings and the doctor's checks; a keys section edited
// into a mistake is refused at start, naming the entry.
func TestConsoleHabitsInTmux(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	cfg := t.TempDir()
	if err := os.WriteFile(filepath.Join(cfg, "config.json"), []byte(`{"keys":{"rotate":["x"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s := newTmux(t, "ERRTRACK_CONFIG_DIR="+cfg, "ERRTRACK_STATE_DIR="+t.TempDir())
	s.tmux("respawn-pane", "-k", "-t", "e2e", bin+" --demo -p demo/web-shop; echo EXITED rc=$?; sleep 30")
	s.waitFor("Client keys (2)")
	s.waitFor("USED IN")
	s.waitFor("SENTRY_DSN")
	s.waitFor("x rotate")
	s.keys("?")
	s.waitFor("x       rotate")
	// Each Escape is waited out: Escape then a letter at once reads as alt+letter.
	s.keys("?")
	s.waitGone("Keys here")
	s.keys("F")
	s.waitFor("Findings for demo/web-shop")
	s.keys("Escape")
	s.waitGone("Findings for")
	s.keys("D")
	s.waitFor("Doctor for demo/web-shop")
	s.waitFor("ingestion (key 1)")
	s.keys("Escape")
	s.waitGone("Doctor for")
	s.keys("R") // the default no longer rotates
	s.keys("x")
	s.waitFor("Update its CI/CD variables?")
	s.keys("C-c")
	s.waitFor("EXITED")

	if err := os.WriteFile(filepath.Join(cfg, "config.json"), []byte(`{"keys":{"rotate":["enter"]}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	s.tmux("respawn-pane", "-k", "-t", "e2e", bin+" --demo; echo EXITED rc=$?; sleep 30")
	s.waitFor("EXITED rc=2")
	s.waitFor(`keys.rotate: "enter" is reserved`)
}

// errtrack --demo --group demo --include-subgroups: the group's projects,
// all the maintained ones marked with ctrl+a, enabled together after one
// question, in the built binary.
func TestConsoleGroupBulkInTmux(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	s := newTmux(t, "ERRTRACK_STATE_DIR="+t.TempDir())
	s.tmux("respawn-pane", "-k", "-t", "e2e", bin+" --demo --group demo --include-subgroups; echo EXITED rc=$?; sleep 30")
	s.waitFor("Projects of group demo and its subgroups")
	s.waitFor("demo/mobile/kiosk")
	s.keys("C-a")
	s.waitFor("7 marked")
	s.keys("C-o")
	s.waitFor("7 marked projects")
	s.keys("e")
	s.waitFor("Enable error tracking in 4 of 7 marked projects?")
	time.Sleep(600 * time.Millisecond) // a question takes keys once it could be read
	s.keys("y")
	s.waitFor("Enabling error tracking: ")
	s.waitRow("changed", "demo/paused")
	time.Sleep(600 * time.Millisecond)
	s.keys("Escape")
	s.waitGone("RESULT") // the report's table
	s.keys("C-c")
	s.waitFor("EXITED rc=")
}
