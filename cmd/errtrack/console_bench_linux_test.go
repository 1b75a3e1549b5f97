package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// BenchmarkConsolePlan5000 is what a user waits for with 5,000 marked
// projects, where the user waits: the built binary in tmux at 120x40
// against `errtrack mock-server --scale-group 5000` at zero latency, beside
// the command's own figures on the same mock, in the same run, each a
// whole process.
//
//	s-disable-question, s-rotate-question  ctrl+o to the plan's question
//	s-command-rotate-dry-run               keys rotate --group --dry-run
//	s-command-disable-dry-run              settings disable --group --dry-run
//	s-disable-run                          yes to the disable run's report
//	s-command-enable-run                   settings enable --group --yes, its
//	                                       plan and run (it turns them on again)
//	ms-CPU/project-console-*, ms-CPU/project-command-*  CPU (user+system)
//	ms-keystroke-max, ms-keystroke-median  a key typed while the rotation
//	                                       plan runs, to its frame on the
//	                                       terminal (tmux's round trip too)
//
// Run it alone: go test -run '^$' -bench ConsolePlan5000 -benchtime 3x ./cmd/errtrack/
func BenchmarkConsolePlan5000(b *testing.B) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			b.Fatalf("tmux is required under CI (.ci/run installs it): %v", err)
		}
		b.Skip("tmux is not installed; .ci/run installs it")
	}
	const n = 5000
	bin := benchBinary(b)
	env := benchEnv(b)
	url := benchMock(b, bin, env, "--scale-group", strconv.Itoa(n))
	figures := map[string][]float64{}
	for b.Loop() {
		s := startBenchConsole(b, bin, env, "--host", url, "--group", "fleet")
		s.waitFor(fmt.Sprintf("(%d)", n))
		idle := s.typeTimed("app-4", "")
		s.keys("Escape")
		s.waitFor(fmt.Sprintf("(%d)", n))
		s.keys("C-a")
		s.waitFor(fmt.Sprintf("%d marked", n))

		cpu0, t0 := s.cpu(), time.Now()
		s.keys("C-o")
		s.waitFor("marked projects")
		s.keys("d")
		s.waitFor("Disable error tracking in")
		disable, disableCPU := time.Since(t0), s.cpu()-cpu0
		s.answer("Escape")
		s.waitGone("Disable error tracking in")

		cpu0, t0 = s.cpu(), time.Now()
		s.keys("C-o")
		s.waitFor("marked projects")
		s.keys("r")
		s.waitFor("Variable:")
		s.keys("Enter")
		// Keys typed while the plan runs go to the list's filter: each is
		// timed to its frame.
		during := s.typeTimed("app-4", "marked projects?")
		s.waitFor(fmt.Sprintf("of %d marked projects?", n))
		rotate, rotateCPU := time.Since(t0), s.cpu()-cpu0
		s.answer("Escape")
		s.waitGone("marked projects?")
		s.keys("Escape") // the filter
		s.waitFor(fmt.Sprintf("(%d, %d marked)", n, n))

		// The disable run, from yes to its report; the command's enable
		// run (plan and run, whole process) turns every project on again.
		s.keys("C-o")
		s.waitFor("marked projects")
		s.keys("d")
		s.waitFor("Disable error tracking in")
		time.Sleep(questionGrace)
		cpu0, t0 = s.cpu(), time.Now()
		s.keys("y")
		s.waitFor(fmt.Sprintf("Disabling error tracking: done in %d projects", n))
		run, runCPU := time.Since(t0), s.cpu()-cpu0
		s.close()
		cmdRun, cmdRunCPU := benchCommand(b, bin, env, "settings", "enable", "--group", "fleet", "--yes", "--host", url)

		cmdRotate, cmdRotateCPU := benchCommand(b, bin, env, "keys", "rotate", "--group", "fleet", "--ci-variable", "SENTRY_DSN", "--dry-run", "--host", url)
		cmdDisable, cmdDisableCPU := benchCommand(b, bin, env, "settings", "disable", "--group", "fleet", "--dry-run", "--host", url)

		perProject := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / n }
		for unit, v := range map[string]float64{
			"s-disable-question": disable.Seconds(), "s-command-disable-dry-run": cmdDisable.Seconds(),
			"s-rotate-question": rotate.Seconds(), "s-command-rotate-dry-run": cmdRotate.Seconds(),
			"ms-CPU/project-console-disable": perProject(disableCPU), "ms-CPU/project-command-disable": perProject(cmdDisableCPU),
			"ms-CPU/project-console-rotate": perProject(rotateCPU), "ms-CPU/project-command-rotate": perProject(cmdRotateCPU),
			"s-disable-run": run.Seconds(), "s-command-enable-run": cmdRun.Seconds(),
			"ms-CPU/project-console-run": perProject(runCPU), "ms-CPU/project-command-run": perProject(cmdRunCPU),
			"ms-keystroke-max":    float64(slices.Max(during).Microseconds()) / 1000,
			"ms-keystroke-median": float64(median(during).Microseconds()) / 1000,
		} {
			figures[unit] = append(figures[unit], v)
		}
		b.Logf("keystrokes at 5,000 projects, idle: %v; during the rotation plan: %v", idle, during)
	}
	// The median of the rounds (-benchtime 3x): the machine's other load
	// moves single figures.
	for unit, vs := range figures {
		slices.Sort(vs)
		b.ReportMetric(vs[len(vs)/2], unit)
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// benchBinary builds errtrack for the benchmark.
func benchBinary(b *testing.B) string {
	bin := filepath.Join(b.TempDir(), "errtrack")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("building errtrack: %v\n%s", err, out)
	}
	return bin
}

// benchEnv is the environment of every process the benchmark starts: its
// own HOME, configuration and state, none of the caller's settings.
func benchEnv(b *testing.B) []string {
	home := b.TempDir()
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		for _, p := range []string{"ERRTRACK_", "GITLAB_", "SENTRY_", "XDG_", "HOME=", "GL_"} {
			if strings.HasPrefix(kv, p) {
				return true
			}
		}
		return false
	})
	return append(env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "XDG_STATE_HOME="+filepath.Join(home, ".state"),
		"ERRTRACK_CONFIG_DIR="+filepath.Join(home, "config"), "ERRTRACK_STATE_DIR="+filepath.Join(home, "state"),
		"GITLAB_TOKEN="+mockserver.TokenMaintainer, "TERM=xterm-256color")
}

// benchMock starts `errtrack mock-server` and returns its URL.
func benchMock(b *testing.B, bin string, env []string, args ...string) string {
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, append([]string{"mock-server", "--listen", "127.0.0.1:0"}, args...)...)
	cmd.Env = env
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cancel(); _ = cmd.Wait() })
	r := bufio.NewReader(out)
	line, err := r.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "listening on http://127.0.0.1:") {
		b.Fatalf("mock-server first line %q, %v", line, err)
	}
	go func() { _, _ = r.WriteTo(discard{}) }()
	return strings.TrimSpace(strings.TrimPrefix(line, "listening on "))
}

// benchCommand runs a command to its end: its time and CPU, whole process.
func benchCommand(b *testing.B, bin string, env []string, args ...string) (wall, cpu time.Duration) {
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	start := time.Now()
	out, err := cmd.CombinedOutput()
	wall = time.Since(start)
	if cmd.ProcessState == nil {
		b.Fatalf("errtrack %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	// A dry run over a group with a project it cannot change exits 1.
	if code := cmd.ProcessState.ExitCode(); code > 1 {
		b.Fatalf("errtrack %s: exit %d\n%s", strings.Join(args, " "), code, out)
	}
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// benchConsole is the console running in tmux at 120x40.
type benchConsole struct {
	b      *testing.B
	socket string
}

func startBenchConsole(b *testing.B, bin string, env []string, args ...string) benchConsole {
	s := benchConsole{b: b, socket: fmt.Sprintf("errtrack-bench-%d-%d", os.Getpid(), time.Now().UnixNano())}
	b.Cleanup(s.close)
	// exec: the pane's process is the console, whose CPU is read.
	cmd := exec.Command("tmux", "-L", s.socket, "-f", "/dev/null", "new-session", "-d", "-s", "bench", "-x", "120", "-y", "40",
		"exec "+bin+" "+strings.Join(args, " "))
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("starting tmux: %v\n%s", err, out)
	}
	return s
}

func (s benchConsole) tmux(args ...string) string {
	out, err := exec.Command("tmux", append([]string{"-L", s.socket, "-f", "/dev/null"}, args...)...).CombinedOutput()
	if err != nil {
		s.b.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func (s benchConsole) close() { _ = exec.Command("tmux", "-L", s.socket, "kill-server").Run() }

func (s benchConsole) screen() string { return s.tmux("capture-pane", "-p", "-t", "bench") }

func (s benchConsole) keys(keys ...string) {
	s.tmux(append([]string{"send-keys", "-t", "bench"}, keys...)...)
}

// answer answers a question that opened on a result, once its keys are
// armed (the console's grace period).
func (s benchConsole) answer(keys ...string) {
	time.Sleep(questionGrace)
	s.keys(keys...)
}

// typeTimed opens the list's filter and types text a key at a time, each
// timed to its frame, until the screen shows until.
func (s benchConsole) typeTimed(text, until string) []time.Duration {
	s.keys("/")
	s.waitFor("/ ")
	var each []time.Duration
	for i, c := range text {
		if until != "" && strings.Contains(s.screen(), until) {
			break
		}
		k0 := time.Now()
		s.keys(string(c))
		s.waitFor("/ " + text[:i+1])
		each = append(each, time.Since(k0).Round(time.Millisecond))
	}
	return each
}

func (s benchConsole) waitFor(text string) {
	s.b.Helper()
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if strings.Contains(s.screen(), text) {
			return
		}
	}
	s.b.Fatalf("the terminal never showed %q; it shows:\n%s", text, s.screen())
}

func (s benchConsole) waitGone(text string) {
	s.b.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if !strings.Contains(s.screen(), text) {
			return
		}
	}
	s.b.Fatalf("the terminal still shows %q", text)
}

// cpu is the console process's CPU so far (user and system), from /proc.
func (s benchConsole) cpu() time.Duration {
	pid := strings.TrimSpace(s.tmux("display", "-p", "-t", "bench", "#{pane_pid}"))
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		s.b.Fatal(err)
	}
	// The fields after the command's name, which is in parentheses.
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+2:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	const ticks = 100 // USER_HZ, 100 on every Linux ABI
	return time.Duration(utime+stime) * time.Second / ticks
}
