package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// The console's third pass (issue 31), each bug seen in the built binary in
// a terminal of its own size. The tests run side by side: each has its own
// tmux server.

// consoleIn runs line (the built errtrack and its arguments) in a w×h
// terminal whose environment adds env; the pane prints EXITED rc=N when
// the console ends.
func consoleIn(t *testing.T, w, h int, line string, env ...string) tmuxSession {
	t.Helper()
	requireTool(t, "tmux")
	s := tmuxSession{t: t, socket: fmt.Sprintf("errtrack-c3-%d-%d", os.Getpid(), time.Now().UnixNano())}
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", s.socket, "kill-server").Run() })
	cmd := exec.Command("tmux", "-L", s.socket, "-f", "/dev/null", "new-session", "-d", "-s", "e2e",
		"-x", fmt.Sprint(w), "-y", fmt.Sprint(h), line+"; echo EXITED rc=$?; sleep 60")
	cmd.Env = append(append(os.Environ(), "TERM=xterm-256color", "XDG_CONFIG_HOME="+t.TempDir(), "ERRTRACK_STATE_DIR="+t.TempDir(), "COLORFGBG="), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("starting tmux: %v\n%s", err, out)
	}
	return s
}

// A question that opened by itself says, on its buttons, that it takes no
// key yet; a quick n leaves it waiting, saying so, not stuck.
func TestConsoleQuestionShowsItsGrace(t *testing.T) {
	t.Parallel()
	s := consoleIn(t, 120, 32, binary(t)+" --demo -p demo/web-shop")
	s.waitFor("Client keys (2)")
	s.keys("R")
	s.waitFor("Update its CI/CD variables?")
	s.keys("n") // too quick: not taken
	if !strings.Contains(s.screen(), "keys wait") {
		t.Fatalf("the question does not say it waits:\n%s", s.screen())
	}
	s.waitGone("keys wait")
	s.keys("n")
	s.waitFor("Delete old key 1?")
	s.keys("C-c")
	s.waitFor("EXITED")
}

// Quitting while a rotation only reads its plan says nothing was changed:
// no key was being created yet.
func TestConsoleQuitDuringARotationPlan(t *testing.T) {
	t.Parallel()
	url := startMockServer(t, "--latency", "1500ms")
	s := consoleIn(t, 100, 30, binary(t)+" --host "+url+" --project 1", "GITLAB_TOKEN="+mockserver.TokenMaintainer)
	s.waitFor("Client keys (2)")
	s.keys("R")
	time.Sleep(200 * time.Millisecond)
	s.keys("C-c")
	s.waitFor("EXITED rc=0")
	scr := strings.ReplaceAll(s.screen(), "\n", "") // the note wraps at the edge
	if !strings.Contains(scr, "was reading its plan: nothing was changed") || strings.Contains(scr, "creating the new key") {
		t.Fatalf("the quit note:\n%s", s.screen())
	}
}
