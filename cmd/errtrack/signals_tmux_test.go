//go:build unix

package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// pane runs one shell command line in a fresh tmux server and reports what
// the terminal shows; the line ends by printing EXIT=<status> and the tty
// modes, so a test can check both the exit and that the terminal was restored.
type pane struct {
	tmuxSession
	t *testing.T
}

func newPane(t *testing.T, env []string, line string) pane {
	t.Helper()
	requireTool(t, "tmux")
	s := tmuxSession{t: t, socket: fmt.Sprintf("errtrack-sig-%d-%d", os.Getpid(), time.Now().UnixNano())}
	t.Cleanup(func() { killTmux(s.socket) })
	cmd := exec.Command("tmux", "-L", s.socket, "-f", "/dev/null", "new-session", "-d", "-s", "e2e", "-x", "100", "-y", "30",
		line+"; echo EXIT=$?; stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo; sleep 30")
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("starting tmux: %v\n%s", err, out)
	}
	return pane{s, t}
}

// pid finds the errtrack process under the pane's shell.
func (p pane) pid() int {
	p.t.Helper()
	shell := strings.TrimSpace(p.tmux("display", "-p", "-t", "e2e", "#{pane_pid}"))
	for i := 0; i < 200; i++ {
		out, _ := exec.Command("pgrep", "-P", shell, "-x", "errtrack").Output()
		if f := strings.Fields(string(out)); len(f) > 0 {
			n, _ := strconv.Atoi(f[0])
			return n
		}
		time.Sleep(10 * time.Millisecond)
	}
	p.t.Fatalf("no errtrack process under the pane:\n%s", p.screen())
	return 0
}

// exited waits for the EXIT line and returns the status, the time it took
// and the tty modes line.
func (p pane) exited(within time.Duration) (int, string) {
	p.t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		scr := p.screen()
		if i := strings.Index(scr, "EXIT="); i >= 0 {
			rest := scr[i+5:]
			lines := strings.SplitN(rest, "\n", 3)
			if len(lines) >= 2 && strings.TrimSpace(lines[1]) != "" {
				code, _ := strconv.Atoi(strings.TrimSpace(lines[0]))
				return code, lines[1]
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	p.t.Fatalf("no exit within %v; the terminal shows:\n%s", within, p.screen())
	return 0, ""
}

func (p pane) mustBeRestored(modes string) {
	p.t.Helper()
	if alt := strings.TrimSpace(p.tmux("display", "-p", "-t", "e2e", "#{alternate_on}")); alt != "0" {
		p.t.Fatalf("still in the alternate screen (%s):\n%s", alt, p.screen())
	}
	if !strings.Contains(" "+modes+" ", " icanon ") || !strings.Contains(" "+modes+" ", " echo ") {
		p.t.Fatalf("terminal left in raw or no-echo mode: %q", modes)
	}
	if cur := strings.TrimSpace(p.tmux("display", "-p", "-t", "e2e", "#{cursor_flag}")); cur != "1" {
		p.t.Fatalf("cursor left hidden")
	}
}

// TestConsoleExitsOnSignals sends SIGTERM, SIGINT and SIGHUP to the running
// console, many times in a row: every time it must exit within a second
// with 128+signal, the terminal restored.
func TestConsoleExitsOnSignals(t *testing.T) {
	requireTool(t, "pgrep")
	bin := binary(t)
	env := []string{"XDG_CONFIG_HOME=" + t.TempDir(), "TERM=xterm-256color"}
	sigs := []syscall.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP}
	var worst time.Duration
	const runs = 12
	for i := 0; i < runs; i++ {
		sig := sigs[i%len(sigs)]
		p := newPane(t, env, bin+" --demo")
		p.waitFor("demo/web-shop")
		pid := p.pid()
		start := time.Now()
		if err := syscall.Kill(pid, sig); err != nil {
			t.Fatal(err)
		}
		code, modes := p.exited(time.Second)
		took := time.Since(start)
		worst = max(worst, took)
		if code != 128+int(sig) {
			t.Fatalf("run %d, %v: exit %d, want %d\n%s", i, sig, code, 128+int(sig), p.screen())
		}
		p.mustBeRestored(modes)
	}
	t.Logf("%d signals, slowest exit %v", runs, worst.Round(time.Millisecond))
}

// A request to a server that never answers, then SIGINT: the console does
// not wait for the answer.
func TestConsoleExitsWhileARequestHangs(t *testing.T) {
	requireTool(t, "pgrep")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close() // accept, never answer
		}
	}()
	bin := binary(t)
	for i := 0; i < 3; i++ {
		p := newPane(t, []string{"XDG_CONFIG_HOME=" + t.TempDir(), "GITLAB_TOKEN=" + mockserver.TokenMaintainer},
			bin+" --host http://"+ln.Addr().String())
		p.waitFor("Projects you maintain")
		time.Sleep(200 * time.Millisecond) // the request is in flight
		if err := syscall.Kill(p.pid(), syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		code, modes := p.exited(time.Second)
		if code != 130 {
			t.Fatalf("exit %d, want 130\n%s", code, p.screen())
		}
		p.mustBeRestored(modes)
	}
}

// Ctrl+C at a y/N question and at the hidden token prompt ends the command
// at once with 130, echo back on.
func TestCtrlCAtPrompts(t *testing.T) {
	bin := binary(t)
	url := startMockServer(t)
	cfg := t.TempDir()
	env := []string{"XDG_CONFIG_HOME=" + cfg, "GITLAB_HOST=" + url}
	for _, tc := range []struct {
		line, prompt, want string
		token              bool
	}{
		{bin + " keys delete -p 1 2", "[y/N]", "nothing was deleted", true},
		{bin + " keys rotate -p 5", "[y/N]", "Both keys exist", true},
		{bin + " login", "Token (input hidden)", "nothing was stored", false},
	} {
		e := env
		if tc.token {
			e = append(e, "GITLAB_TOKEN="+mockserver.TokenMaintainer)
		}
		p := newPane(t, e, tc.line)
		p.waitFor(tc.prompt)
		start := time.Now()
		p.keys("C-c")
		code, modes := p.exited(time.Second)
		if code != 130 {
			t.Fatalf("%s: exit %d, want 130\n%s", tc.line, code, p.screen())
		}
		if !strings.Contains(p.screen(), tc.want) {
			t.Fatalf("%s: the terminal lacks %q:\n%s", tc.line, tc.want, p.screen())
		}
		p.mustBeRestored(modes)
		t.Logf("%s: exit 130 after %v", filepath.Base(strings.Fields(tc.line)[1]), time.Since(start).Round(time.Millisecond))
	}
}

// Quitting while a write waits for the server asks first; quitting then
// exits 130, as an interrupted command does, and says what was under way.
func TestQuitDuringWriteSaysSo(t *testing.T) {
	bin := binary(t)
	url := startMockServer(t, "--latency", "1500ms")
	p := newPane(t, []string{"XDG_CONFIG_HOME=" + t.TempDir(), "GITLAB_TOKEN=" + mockserver.TokenMaintainer},
		bin+" --host "+url+" --project 1")
	p.waitFor("Client keys (2)")
	p.keys("n")
	time.Sleep(100 * time.Millisecond)
	p.keys("q")
	p.waitFor("Quit with a change under way?")
	p.keys("y")
	code, modes := p.exited(3 * time.Second)
	if code != 130 {
		t.Fatalf("exit %d, want 130", code)
	}
	p.mustBeRestored(modes)
	if !strings.Contains(p.screen(), "you quit while a client key was being created in") {
		t.Fatalf("nothing said about the create in flight:\n%s", p.screen())
	}
}
