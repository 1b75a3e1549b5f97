package main

import (
	"os"
	"path/filepath"
	"testing"
)

// The console's habits, in the built binary: a key rebound in the config
// file works and ? shows it; where each DSN is used shows in the keys pane;
// F and D show the findings and the doctor's checks; a keys section edited
// into a mistake is refused at start, naming the entry.
func TestConsoleHabitsInTmux(t *testing.T) {
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
