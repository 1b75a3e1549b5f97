package main

import (
	"bytes"
	"net/http/httptest"
	"os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// One allocation past the bound ("x" * 2e9: gojq's own cap is 2 GiB) is
// refused by the filter process's address space limit, in the real binary
// (the race detector's shadow memory rules the limit out under go test
// -race): the memory never used, the bound named.
func TestJQSingleHugeAllocation(t *testing.T) {
	t.Parallel()
	s, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	cmd := exec.Command(binary(t), "api", "user", "--jq", `"x" * 2000000000 | length`)
	cmd.Env = []string{"GITLAB_TOKEN=" + mockserver.TokenMaintainer, "GITLAB_HOST=" + ts.URL, "ERRTRACK_CONFIG_DIR=" + t.TempDir(), "HOME=" + t.TempDir()}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if cmd.ProcessState.ExitCode() != 1 || !strings.Contains(stderr.String(), "--jq stopped: the filter used more than 512 MiB") || len(out) != 0 {
		t.Fatalf("%v, %q\n%s", err, out, stderr.String())
	}
	// The peak of errtrack and of the filter process it waited for.
	if peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10; peak > 768<<20 {
		t.Fatalf("peak memory %d MiB: the allocation was made", peak>>20)
	}
}
