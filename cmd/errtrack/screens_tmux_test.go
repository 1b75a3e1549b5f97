package main

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The console's screens as a user sees them, in a real terminal (tmux)
// of a given size: decisions on one line, tables that fit, dialogs that
// keep their border and their keys on small terminals.

// demoTmux runs errtrack --demo with args in a cols x rows tmux, in its
// own HOME, config and state.
func demoTmux(t *testing.T, cols, rows int, args string) tmuxSession {
	t.Helper()
	requireTool(t, "tmux")
	bin := binary(t)
	s := tmuxSession{t: t, socket: fmt.Sprintf("errtrack-scr-%d-%d", os.Getpid(), time.Now().UnixNano())}
	t.Cleanup(func() { killTmux(s.socket) })
	dir := t.TempDir()
	cmd := exec.Command("tmux", "-L", s.socket, "-f", "/dev/null", "new-session", "-d", "-s", "e2e", "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows), "sleep 60")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "TERM=xterm-256color", "HOME=" + dir, "ERRTRACK_CONFIG_DIR=" + dir + "/config",
		"ERRTRACK_STATE_DIR=" + dir + "/state", "XDG_CONFIG_HOME=" + dir + "/xdg", "XDG_STATE_HOME=" + dir + "/xdg"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("starting tmux: %v\n%s", err, out)
	}
	s.tmux("respawn-pane", "-k", "-t", "e2e", bin+" --demo "+args+"; sleep 30")
	return s
}

// In tmux at 120x32 the migration plan of the demo group shows every
// project on one line, whole (issue 39's done-when), and enter on a row
// shows its details.
func TestMigrationPlanOneLineAProjectInTmux(t *testing.T) {
	s := demoTmux(t, 120, 32, "--group demo --include-subgroups")
	s.waitFor("integrated · on · 2 keys")
	s.waitFor("Sentry · on")
	s.keys("C-a")
	s.waitFor("7 marked")
	s.keys("C-o")
	s.waitFor("m  migrate to a Sentry")
	s.keys("m")
	s.waitFor("Sentry: http")
	s.keys("Enter")
	s.waitFor("Organisation: demo/backend")
	s.keys("Enter")
	s.waitFor("Migrate to the Sentry at")
	s.waitRow("RESULT", "PROJECT", "TARGET", "CHANGES", "THEN")
	screen := s.screen()
	for _, p := range []string{"demo/web-shop", "demo/mobile/android", "demo/mobile/ios", "demo/paused", "demo/legacy-api", "demo/mobile-app", "demo/on-prem"} {
		row := regexp.MustCompile(`│ (planned|skipped)\s+` + regexp.QuoteMeta(p) + `\s`)
		if n := len(row.FindAllString(screen, -1)); n != 1 {
			t.Errorf("%s: %d rows in the plan, want one:\n%s", p, n, screen)
		}
	}
	s.waitRow("planned", "demo/mobile/ios", "demo/demo-mobile-ios (new)", "SENTRY_DSN → Sentry DSN", "integrated kept on (unread)")
	if strings.Contains(screen, "more lines") || strings.Contains(screen, "…") {
		t.Errorf("the plan is cut at 120 columns:\n%s", screen)
	}
	s.answer("Down", "Enter")
	s.waitFor("Target:   demo/demo-mobile-android (new)")
	s.keys("Escape")
	s.waitFor("Migrate to the Sentry at")
}

// At 50x15 the Sentry rotation's question keeps its bottom border and its
// rotate and cancel keys; the marked-projects menu keeps every pick's key.
func TestSmallTerminalKeepsTheDecisionInTmux(t *testing.T) {
	s := demoTmux(t, 50, 15, "-p demo/legacy-api")
	s.waitFor("Client keys (2)")
	s.waitFor("Production")
	s.keys("R")
	s.waitFor("enter rotate • esc cancel")
	if scr := s.screen(); !strings.Contains(scr, "╰") || !strings.Contains(scr, "╭") {
		t.Fatalf("the question's border is cut:\n%s", scr)
	}
	s.keys("Escape")
	s.waitGone("enter rotate")

	m := demoTmux(t, 50, 15, "")
	m.waitFor("partner/sdk")
	m.waitFor("SDK        on")
	m.keys("C-a")
	m.waitFor("marked")
	m.keys("C-o")
	m.waitFor("e/d/r/v/m/x choose • esc back")
}

// At 200 columns the key view shows the key's DSN on one line.
func TestKeyViewDSNOnOneLineInTmux(t *testing.T) {
	s := demoTmux(t, 200, 40, "-p demo/web-shop")
	s.waitFor("Client keys (2)")
	s.waitFor("USED IN")
	s.keys("Enter")
	s.waitFor("Client key 1 of demo/web-shop")
	// The dialog's lines may come in more than one write: wait for the
	// DSN whole rather than read the first screen after its title.
	s.waitMatch(regexp.MustCompile(`http://glet_[0-9a-f]{32}@127\.0\.0\.1:\d+/errortracking/api/v1/projects/\d+`))
}
