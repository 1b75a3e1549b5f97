//go:build unix

package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// --input FIFO with no writer: opening it blocks, and --timeout still ends
// the command, naming the file.
func TestAPIInputFIFO(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "body")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	h, n := counting(t)
	c := newCLI(t, h)
	r := timed(t, 10*time.Second, func() result {
		return c.run("", "api", "-X", "POST", "projects/1/variables", "--input", fifo, "--timeout", "500ms")
	})
	r.must(t, 1, "--input: "+fifo+" gave no complete body within --timeout (500ms)", "FIFO")
	if n.Load() != 0 {
		t.Fatalf("%d requests sent", n.Load())
	}
}

// --jq is bounded in memory: a filter that grows step by step is stopped
// at the bound, which the error names; nothing of the sort reaches the
// output. (The bound is 16 MiB here to keep the test quick; the filter
// process watches its heap whatever the bound.)
func TestJQMemoryBound(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.jqLimit = 16 << 20
	for _, expr := range []string{"[range(1e9)]", "def f: [f]; f", "[range(1e9) | tostring] | length"} {
		r := timed(t, 60*time.Second, func() result { return c.run("", "api", "user", "--jq", expr) })
		r.must(t, 1, "--jq stopped: the filter used more than 16 MiB of memory")
		if r.stdout != "" {
			t.Fatalf("%s printed %.200q", expr, r.stdout)
		}
	}
	// Within the bound, a filter works as before.
	c.run("", "api", "user", "--jq", "[range(1000)] | length").must(t, 0, "1000")
}

// --jq is bounded in time by --timeout, and says so (not "context
// deadline exceeded").
func TestJQTimeBound(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	r := timed(t, 20*time.Second, func() result {
		return c.run("", "api", "user", "--timeout", "1s", "--jq", "last(range(1e12))")
	})
	r.must(t, 1, "--jq stopped: the filter took longer than --timeout (1s) allows")
	if strings.Contains(r.stderr, "deadline") {
		t.Fatalf("stderr: %s", r.stderr)
	}
}

// Ctrl+C during a --jq filter ends the command at once: 130, "interrupted".
func TestJQCtrlC(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.signals = make(chan os.Signal, 2)
	go func() {
		time.Sleep(500 * time.Millisecond)
		c.signals <- syscall.SIGINT
	}()
	r := timed(t, 10*time.Second, func() result { return c.run("", "api", "user", "--jq", "last(range(1e12))") })
	r.must(t, 130, "errtrack: interrupted.")
}

// --input on a file that never ends (stdin nobody writes to, a FIFO with no
// writer) honours --timeout, and Ctrl+C, saying what happened.
func TestAPIInputBounded(t *testing.T) {
	h, n := counting(t)
	c := newCLI(t, h)
	pr, pw := io.Pipe()
	defer pw.Close()
	c.stdin = pr
	r := timed(t, 10*time.Second, func() result {
		return c.run("", "api", "-X", "POST", "projects/1/variables", "--input", "-", "--timeout", "500ms")
	})
	r.must(t, 1, "--input: standard input gave no complete body within --timeout (500ms); nothing was sent")
	c.stdin = newCtrlC(c)
	r = timed(t, 3*time.Second, func() result {
		return c.run("", "api", "-X", "POST", "projects/1/variables", "--input", "-")
	})
	r.must(t, 130, "errtrack: interrupted.")
	if n.Load() != 0 {
		t.Fatalf("%d requests sent", n.Load())
	}
}

// --paginate stopped by --timeout after some pages says how many were read
// and that nothing is printed, not "did not answer in time".
func TestAPIPaginateTimeoutSaysHowFar(t *testing.T) {
	t.Parallel()
	const pages = 7
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = max(page, 1)
		if page > pages {
			<-r.Context().Done() // the next page never comes
			return
		}
		w.Header().Set("X-Next-Page", strconv.Itoa(page+1))
		fmt.Fprint(w, `[1,2,3]`)
	}))
	r := timed(t, 10*time.Second, func() result { return c.run("", "api", "things", "--paginate", "--timeout", "1s") })
	r.must(t, 1, "--paginate read 7 pages (21 elements), then --timeout (1s) ran out on page 8; nothing is printed. Raise --timeout")
	if strings.Contains(r.stderr, "did not answer in time") || r.stdout != "" {
		t.Fatalf("stdout %q, stderr %s", r.stdout, r.stderr)
	}
	if got := thousands(1341); got != "1,341" || thousands(134100) != "134,100" || thousands(12) != "12" || thousands(1000000) != "1,000,000" {
		t.Fatal(got)
	}
}
