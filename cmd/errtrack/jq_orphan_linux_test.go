package main

import (
	"net/http/httptest"
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

// errtrack killed with SIGKILL (it cannot clean up) while a --jq filter
// runs: the filter process, which ignores SIGINT and SIGTERM, ends with it
// instead of running on, orphaned, for as long as its filter takes.
func TestJQFilterDiesWithErrtrack(t *testing.T) {
	s, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	cmd := exec.Command(binary(t), "api", "user", "--jq", "last(range(1e12))")
	cmd.Env = []string{"GITLAB_TOKEN=" + mockserver.TokenMaintainer, "GITLAB_HOST=" + ts.URL, "ERRTRACK_CONFIG_DIR=" + t.TempDir(), "HOME=" + t.TempDir()}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	var child int
	for deadline := time.Now().Add(20 * time.Second); child == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the filter process never started")
		}
		child = childOf(cmd.Process.Pid)
	}
	t.Cleanup(func() { _ = syscall.Kill(child, syscall.SIGKILL) })
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	for deadline := time.Now().Add(5 * time.Second); alive(child); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the filter process %d outlives errtrack", child)
		}
	}
}

// childOf is a child process of pid (0: none yet), from /proc.
func childOf(pid int) int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		b, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so after the last ')'.
		f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			c, _ := strconv.Atoi(filepath.Base(filepath.Dir(st)))
			return c
		}
	}
	return 0
}

// alive reports a process that exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}
