package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// tmuxSession drives the built binary in a real terminal.
type tmuxSession struct {
	t      *testing.T
	socket string
}

func (s tmuxSession) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket, "-f", "/dev/null"}, args...)...).CombinedOutput()
	if err != nil {
		s.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (s tmuxSession) screen() string { return s.tmux("capture-pane", "-p", "-t", "e2e") }

func (s tmuxSession) waitFor(text string) {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(s.screen(), text) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	s.t.Fatalf("the terminal never showed %q; it shows:\n%s", text, s.screen())
}

// waitRow waits for a row holding cells in order, whatever the spaces
// between them (a table's columns).
func (s tmuxSession) waitRow(cells ...string) {
	s.t.Helper()
	parts := make([]string, len(cells))
	for i, c := range cells {
		parts[i] = regexp.QuoteMeta(c)
	}
	row := regexp.MustCompile(strings.Join(parts, `\s+`))
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if row.MatchString(s.screen()) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	s.t.Fatalf("the terminal never showed a row %q; it shows:\n%s", cells, s.screen())
}

func (s tmuxSession) waitGone(text string) {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if !strings.Contains(s.screen(), text) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.t.Fatalf("the terminal still shows %q:\n%s", text, s.screen())
}

// questionGrace is longer than the console's grace period: a question
// that opened on a result takes keys only once the keyboard was quiet that
// long, as a reader's is.
const questionGrace = 600 * time.Millisecond

// answer answers a question that opened on a result, as a user who read it.
func (s tmuxSession) answer(keys ...string) {
	s.t.Helper()
	time.Sleep(questionGrace)
	s.keys(keys...)
}

func (s tmuxSession) keys(keys ...string) {
	s.tmux(append([]string{"send-keys", "-t", "e2e"}, keys...)...)
}

// TestEndToEndInTmux builds errtrack, starts `errtrack mock-server`, runs
// the console in tmux, creates a key, cancels one delete, confirms another,
// and checks the server's state through the API.
func TestEndToEndInTmux(t *testing.T) {
	t.Parallel()
	requireTool(t, "tmux")
	bin := binary(t)
	url := startMockServer(t)
	s := tmuxSession{t: t, socket: fmt.Sprintf("errtrack-e2e-%d", os.Getpid())}
	t.Cleanup(func() { killTmux(s.socket) })

	cfg := t.TempDir()
	// The tmux server starts first, so the timing below is errtrack's own.
	// The token reaches the console through the environment, never argv.
	cmd := exec.Command("tmux", "-L", s.socket, "-f", "/dev/null", "new-session", "-d", "-s", "e2e", "-x", "100", "-y", "30", "sleep 60")
	cmd.Env = append(os.Environ(), "GITLAB_TOKEN="+mockserver.TokenMaintainer, "XDG_CONFIG_HOME="+cfg, "TERM=xterm-256color")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("starting tmux: %v\n%s", err, out)
	}
	start := time.Now()
	s.tmux("respawn-pane", "-k", "-t", "e2e", bin+" --host "+url+"; echo EXITED rc=$?; sleep 30")
	s.waitFor("Projects you maintain")
	firstFrame := time.Since(start)
	s.waitFor("demo/web-shop")
	// A figure, not an assertion: timing depends on the machine (the target
	// is checked by BenchmarkFirstFrame).
	t.Logf("first frame %v, project list %v after the process started", firstFrame.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
	s.waitFor("@demo-maintainer")
	if got := strings.TrimSpace(s.tmux("display", "-p", "-t", "e2e", "#{alternate_on}")); got != "1" {
		t.Errorf("alternate screen not in use: %q", got)
	}
	s.keys("/web-shop") // / starts the filter; typing filters the list
	s.keys("Enter")
	s.waitFor("Client keys (2)")

	s.keys("n")
	s.waitFor("Client keys (3)")
	s.waitFor("Created client key 4")

	s.keys("d") // the new key is selected
	s.waitFor("Delete client key 4 of demo/web-shop?")
	s.answer("n")
	s.waitGone("Delete client key 4 of demo/web-shop?")

	s.keys("k", "d")
	s.waitFor("Delete client key 2 of demo/web-shop?")
	s.answer("y")
	s.waitFor("Deleted client key 2")
	s.waitFor("Client keys (2)")

	s.keys("q")
	s.waitFor("EXITED rc=0")

	c, err := apiclient.New(url, mockserver.TokenMaintainer)
	if err != nil {
		t.Fatal(err)
	}
	keys, _, err := c.ListClientKeys(context.Background(), apiclient.ProjectID(1))
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0].ID != 1 || keys[1].ID != 4 {
		t.Fatalf("server keys after the session: %+v, want ids 1 and 4", keys)
	}
	// The recent-projects file was written, without the token.
	b, err := os.ReadFile(cfg + "/errtrack/config.json")
	if err != nil || !strings.Contains(string(b), "recent_projects") || strings.Contains(string(b), mockserver.TokenMaintainer) {
		t.Fatalf("config file: %v\n%s", err, b)
	}
}

// killTmux ends a test's tmux server and waits for the programs its panes
// ran to end (each pane is a process group of its own): an errtrack still
// closing its ledger must not meet the test's cleanup of its state
// directory ("directory not empty").
func killTmux(socket string) {
	out, _ := exec.Command("tmux", "-L", socket, "list-panes", "-a", "-F", "#{pane_pid}").Output()
	_ = exec.Command("tmux", "-L", socket, "kill-server").Run()
	groups := strings.Fields(string(out))
	deadline := time.Now().Add(3 * time.Second)
	for time.Now().Before(deadline) && liveInGroups(groups) {
		time.Sleep(10 * time.Millisecond)
	}
}

// liveInGroups reports whether a process of one of the process groups is
// still running: a zombie has ended (no init reaps it in some containers).
func liveInGroups(groups []string) bool {
	out, err := exec.Command("ps", "-e", "-o", "pgid=,stat=").Output()
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && !strings.HasPrefix(f[1], "Z") && slices.Contains(groups, f[0]) {
			return true
		}
	}
	return false
}
