package main

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

func startServerProcess(t *testing.T, args ...string) (*exec.Cmd, string, *strings.Builder) {
	t.Helper()
	cmd := exec.Command(binary(t), append([]string{"mock-server", "--listen", "127.0.0.1:0"}, args...)...)
	stderr := &strings.Builder{}
	cmd.Stderr = stderr
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	r := bufio.NewReader(out)
	line, err := r.ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "listening on http://127.0.0.1:") {
		t.Fatalf("first line %q, %v", line, err)
	}
	rest, _ := r.ReadString('\n')
	if !strings.HasPrefix(rest, "tokens:") {
		t.Fatalf("second line %q", rest)
	}
	go func() { _, _ = r.WriteTo(discard{}) }()
	return cmd, strings.TrimSpace(strings.TrimPrefix(line, "listening on ")), stderr
}

func TestMockServerStopsCleanlyOnSIGTERM(t *testing.T) {
	t.Parallel()
	cmd, _, stderr := startServerProcess(t)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v\n%s", err, stderr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("mock-server did not stop on SIGTERM")
	}
	if !strings.Contains(stderr.String(), "mock server stopped") {
		t.Fatalf("stderr: %s", stderr)
	}
}

// TestStateSurvivesKill9 kills the mock server with SIGKILL in the middle of
// concurrent writes: the state file must still load.
func TestStateSurvivesKill9(t *testing.T) {
	t.Parallel()
	state := filepath.Join(t.TempDir(), "state.json")
	cmd, url, _ := startServerProcess(t, "--state", state)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var mu sync.Mutex
	created := 0
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				req, _ := http.NewRequestWithContext(ctx, "POST", url+"/api/v4/projects/1/error_tracking/client_keys", nil)
				req.Header.Set("PRIVATE-TOKEN", mockserver.TokenMaintainer)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					return
				}
				resp.Body.Close()
				if resp.StatusCode == 201 {
					mu.Lock()
					created++
					mu.Unlock()
				}
			}
		}()
	}
	time.Sleep(400 * time.Millisecond)
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait() // reaped, as a shell would: a zombie still answers kill(pid, 0)
	cancel()
	wg.Wait()
	s, err := mockserver.New(mockserver.Options{StatePath: state})
	if err != nil {
		t.Fatalf("state file does not load after kill -9: %v", err)
	}
	n := s.KeyCount(1)
	// Every acknowledged create was saved before its answer was sent.
	if n < 2+created {
		t.Fatalf("state holds %d keys of project 1; %d creates were acknowledged", n, created)
	}
	t.Logf("%d creates acknowledged before SIGKILL; the state file holds %d keys of project 1", created, n)
	if matches, _ := filepath.Glob(filepath.Join(filepath.Dir(state), ".mockserver-state-*")); len(matches) > 0 {
		t.Fatalf("temporary files left after a restart: %v", matches)
	}
}

// --listen 0.0.0.0:0 prints a URL errtrack accepts, and warns that the demo
// tokens are public beyond loopback.
func TestMockServerListenAnywhere(t *testing.T) {
	t.Parallel()
	cmd, url, stderr := startServerProcess(t, "--listen", "0.0.0.0:0")
	c := newCLI(t, nil)
	c.env["GITLAB_HOST"] = url
	c.run("", "keys", "list", "-p", "1").must(t, 0, "glet_")
	_ = cmd.Process.Signal(syscall.SIGTERM)
	_ = cmd.Wait() // stderr is read once the process is done with it
	if !strings.Contains(stderr.String(), "beyond loopback") {
		t.Fatalf("no warning: %q", stderr.String())
	}
}

// --tls: the first line is the https URL and the second the CA file, which
// errtrack's --ca-file accepts; the file goes when the server stops.
func TestMockServerTLS(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(binary(t), "mock-server", "--listen", "127.0.0.1:0", "--tls")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	r := bufio.NewReader(out)
	first, _ := r.ReadString('\n')
	second, _ := r.ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(first), "listening on ")
	caFile, ok2 := strings.CutPrefix(strings.TrimSpace(second), "ca-file: ")
	if !ok || !strings.HasPrefix(url, "https://127.0.0.1:") || !ok2 {
		t.Fatalf("first lines %q %q", first, second)
	}
	go func() { _, _ = r.WriteTo(discard{}) }()
	c := newCLI(t, nil)
	c.env["GITLAB_HOST"] = url
	c.run("", "keys", "list", "-p", "1", "--ca-file", caFile).must(t, 0, "https://glet_")
	_ = cmd.Process.Signal(syscall.SIGTERM)
	_ = cmd.Wait()
	if _, err := os.Stat(caFile); err == nil {
		t.Fatalf("%s outlived the server", caFile)
	}
}

// --log: a line per request on stderr, with the method, the path, the
// status and the protocol, and no token.
func TestMockServerLog(t *testing.T) {
	t.Parallel()
	cmd, url, stderr := startServerProcess(t, "--log")
	req, _ := http.NewRequest("GET", url+"/api/v4/projects/1/error_tracking/settings?private_token="+mockserver.TokenMaintainer, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	_ = cmd.Process.Signal(syscall.SIGTERM)
	_ = cmd.Wait()
	log := stderr.String()
	if !strings.Contains(log, "GET    /api/v4/projects/1/error_tracking/settings?private_token=%5Bredacted%5D 200 ") || !strings.Contains(log, "HTTP/1.1") || strings.Contains(log, mockserver.TokenMaintainer) {
		t.Fatalf("stderr: %s", log)
	}
}

// A malformed --gitlab-version is a usage error that says what is wanted.
func TestMockServerBadVersion(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "mock-server", "--gitlab-version", "fifteen").must(t, 2, `GitLab version "fifteen" is not MAJOR.MINOR`, "15.4")
	c.run("", "mock-server", "--gitlab-version", "7.0").must(t, 2, "older than this mock knows")
}
