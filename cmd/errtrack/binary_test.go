package main

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/errtrack/errtrack/internal/testenv"
)

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
)

// binary builds errtrack once per test run.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "errtrack-bin-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "errtrack")
		out, err := exec.Command("go", "build", "-o", builtBin, ".").CombinedOutput()
		if err != nil {
			buildErr = err
			builtBin = string(out)
		}
	})
	if buildErr != nil {
		t.Fatalf("building errtrack: %v\n%s", buildErr, builtBin)
	}
	return builtBin
}

// startMockServer runs `errtrack mock-server` and returns its URL.
func startMockServer(t *testing.T, args ...string) string {
	t.Helper()
	gitlab, _ := startMockServers(t, args...)
	return gitlab
}

// startMockServers is startMockServer with its mock Sentry's address too.
func startMockServers(t *testing.T, args ...string) (gitlab, sentryURL string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, binary(t), append([]string{"mock-server", "--listen", "127.0.0.1:0"}, args...)...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	r := bufio.NewReader(out)
	line, err := r.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "listening on http://127.0.0.1:") {
		t.Fatalf("mock-server first line %q, %v", line, err)
	}
	gitlab = strings.TrimSpace(strings.TrimPrefix(line, "listening on "))
	for sentryURL == "" {
		l, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("mock-server never said where its Sentry listens: %v", err)
		}
		if u, ok := strings.CutPrefix(strings.TrimSpace(l), "sentry: listening on "); ok {
			sentryURL = u
		}
	}
	go func() { _, _ = r.WriteTo(discard{}) }()
	return gitlab, sentryURL
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// requireTool finds a program the test needs: under CI its absence fails
// the test (.ci/run installs it); elsewhere the test is skipped, saying why.
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is required under CI (.ci/run installs it): %v", name, err)
		}
		t.Skipf("%s is not installed; .ci/run installs it", name)
	}
	return p
}

// TestMain runs the tests, and every errtrack they start, in a HOME, config
// and state of their own (internal/testenv), and removes the binary built for
// the end-to-end tests: a test run leaves nothing behind.
func TestMain(m *testing.M) {
	// The test binary is also the --jq filter process of the commands
	// the tests run in process.
	if len(os.Args) > 1 && os.Args[1] == jqChildArg {
		os.Exit(jqChildMain(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
	}
	code := testenv.Run(m)
	if builtBin != "" && buildErr == nil {
		os.RemoveAll(filepath.Dir(builtBin))
	}
	os.Exit(code)
}
