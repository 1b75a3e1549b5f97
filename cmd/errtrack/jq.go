package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/itchyny/gojq"

	"github.com/errtrack/errtrack/internal/safetext"
)

// A --jq filter runs in a process of its own (errtrack started again with
// jqChildArg), so that it is bounded like a program, not like a goroutine:
// gojq has no memory bound, and a single step of it ("x" * 2e9, a
// 2 GiB string) allocates in one call that no check between steps can
// stop. The filter process:
//   - watches its heap and exits (jqExitMemory) once it passes the bound,
//     which catches a filter that grows step by step ([range(1e9)],
//     def f: [f]; f) on every system;
//   - on Linux, also has its address space capped (RLIMIT_AS) a little
//     above the bound, so one huge allocation fails at once instead of
//     taking the machine's memory;
//   - stops at the command's deadline, and is killed by errtrack at it or
//     on Ctrl+C (it ignores the terminal's signals, so the parent decides
//     what is said);
//   - ends when errtrack dies, even by SIGKILL: the standard input it
//     watches reaches its end (and on Linux the kernel's parent-death
//     signal kills it);
//   - gets no environment: not a token, not anything else.
// When the process cannot be started, the filter runs in errtrack itself,
// with the same heap watch cancelling it.

const (
	// jqChildArg, as the first argument, makes errtrack a filter process.
	jqChildArg = "__errtrack-jq-filter"
	// jqMemoryLimit bounds a filter's heap.
	jqMemoryLimit = 512 << 20
)

// Exit statuses of the filter process.
const (
	jqExitError   = 1 // a jq error; its text on stderr
	jqExitMemory  = 3
	jqExitNotJSON = 4
	jqExitTime    = 5
	jqExitOrphan  = 6 // errtrack is gone: nobody reads the results
)

var errNotJSON = errors.New("--jq needs a JSON answer, and this one is not JSON")

// jqStopped is a filter stopped by one of its bounds.
type jqStopped struct{ why string }

func (e jqStopped) Error() string { return "--jq stopped: " + e.why }

func (a *app) jqMemory() uint64 {
	if a.jqLimit > 0 {
		return a.jqLimit
	}
	return jqMemoryLimit
}

func (a *app) jqOverMemory() error {
	return jqStopped{fmt.Sprintf("the filter used more than %d MiB of memory. Build less at once (select before collecting into an array), or save the answer (errtrack api ... >answer.json) and filter it with jq", a.jqMemory()>>20)}
}

func (a *app) jqOverTime() error {
	return jqStopped{fmt.Sprintf("the filter took longer than --timeout (%s) allows. Raise --timeout, or simplify the filter.", a.timeout)}
}

// compileJQ parses and compiles a --jq expression. No environment is given
// to it: $ENV and env are empty, so a filter cannot print a token kept in
// a variable.
func compileJQ(expr string) (*gojq.Code, error) {
	q, err := gojq.Parse(expr)
	if err != nil {
		return nil, usagef("--jq: %s", err)
	}
	code, err := gojq.Compile(q)
	if err != nil {
		return nil, usagef("--jq: %s", err)
	}
	return code, nil
}

// filterJQ runs the filter expr on the JSON answer b in a filter process,
// its results on a.stdout.
func (a *app) filterJQ(ctx context.Context, expr string, b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	self, err := os.Executable()
	if err != nil {
		return a.filterJQHere(ctx, expr, b)
	}
	timeout := time.Duration(0)
	if dl, ok := ctx.Deadline(); ok {
		timeout = max(time.Until(dl), time.Millisecond)
	}
	cmd := exec.CommandContext(ctx, self, jqChildArg, expr, strconv.FormatUint(a.jqMemory(), 10), strconv.FormatInt(int64(timeout), 10))
	cmd.Env = []string{}
	// The answer goes in with its length first; the pipe then stays open
	// until the filter ends (Wait closes it), so the filter sees its end
	// when errtrack dies, and ends too.
	in, err := cmd.StdinPipe()
	if err != nil {
		return a.filterJQHere(ctx, expr, b)
	}
	dieWithParent(cmd)
	cmd.Stdout = a.stdout
	var stderr boundedBuffer
	cmd.Stderr = &stderr
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return a.filterJQHere(ctx, expr, b)
	}
	go func() {
		// A filter that ended early leaves the write failing: Wait says why.
		_, _ = fmt.Fprintf(in, "%d\n", len(b))
		_, _ = in.Write(b)
	}()
	err = cmd.Wait()
	var exit *exec.ExitError
	switch {
	case ctx.Err() != nil:
		var intr interrupted
		if errors.As(context.Cause(ctx), &intr) {
			return intr
		}
		return a.jqOverTime()
	case err == nil:
		return nil
	case !errors.As(err, &exit):
		return fmt.Errorf("--jq: the filter process failed: %w", err)
	}
	switch code := exit.ExitCode(); {
	case code == jqExitError:
		return fmt.Errorf("--jq: %s", safetext.Excerpt(stderr.String(), 300))
	case code == jqExitNotJSON:
		return errNotJSON
	case code == jqExitTime:
		return a.jqOverTime()
	case code == jqExitMemory, code == 2 && strings.Contains(stderr.String(), "out of memory"):
		return a.jqOverMemory()
	case killedByPipe(exit):
		return nil // standard output was closed (| head): as any program, stop
	}
	return fmt.Errorf("--jq: the filter process ended unexpectedly (%s)", exit)
}

// filterJQHere runs the filter in errtrack itself, cancelled when the
// heap grows past the bound.
func (a *app) filterJQHere(ctx context.Context, expr string, b []byte) error {
	code, err := compileJQ(expr)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	over := a.jqOverMemory()
	stop := watchHeap(heapBytes()+a.jqMemory(), func() { cancel(over) })
	defer stop()
	err = runJQ(ctx, code, b, a.stdout)
	switch {
	case err == nil:
	case context.Cause(ctx) == over:
		return over
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return a.jqOverTime()
	case ctx.Err() != nil:
		return context.Cause(ctx)
	}
	return err
}

// jqChildMain is the filter process: args are the expression, the heap
// bound in bytes and the time left in nanoseconds (0: none).
func jqChildMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	signal.Ignore(os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	if len(args) != 3 {
		fmt.Fprintln(stderr, "the filter process takes an expression, a memory bound and a time bound")
		return jqExitError
	}
	limit, err1 := strconv.ParseUint(args[1], 10, 64)
	timeout, err2 := strconv.ParseInt(args[2], 10, 64)
	if err1 != nil || err2 != nil || limit == 0 {
		fmt.Fprintln(stderr, "the filter process's bounds are not numbers")
		return jqExitError
	}
	limitAddressSpace(limit)
	debug.SetMemoryLimit(int64(limit)) // the collector works hard before the watch fires
	stop := watchHeap(limit, func() { os.Exit(jqExitMemory) })
	defer stop()
	ctx := context.Background()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(timeout))
		defer cancel()
	}
	code, err := compileJQ(args[0])
	if err != nil {
		fmt.Fprintln(stderr, err)
		return jqExitError
	}
	in, err := readAnswer(stdin)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return jqExitError
	}
	switch err := runJQ(ctx, code, in, stdout); {
	case err == nil:
		return 0
	case errors.Is(err, errNotJSON):
		return jqExitNotJSON
	case ctx.Err() != nil:
		return jqExitTime
	default:
		fmt.Fprintln(stderr, strings.TrimPrefix(err.Error(), "--jq: "))
		return jqExitError
	}
}

// readAnswer reads the answer errtrack sends (its length, a newline, then
// the answer), then watches the rest of stdin: errtrack holds it open until
// the filter ends, so its end means errtrack died, and the filter ends too.
func readAnswer(stdin io.Reader) ([]byte, error) {
	r := bufio.NewReader(stdin)
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("the filter process's input has no length: %w", err)
	}
	n, err := strconv.ParseUint(strings.TrimSpace(line), 10, 31)
	if err != nil {
		return nil, fmt.Errorf("the filter process's input has no length: %w", err)
	}
	b := make([]byte, n)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, err
	}
	go func() {
		_, _ = io.Copy(io.Discard, r)
		os.Exit(jqExitOrphan)
	}()
	return b, nil
}

// runJQ runs code on the JSON answer b and prints each result on a line:
// a string as it is, cleaned of control characters (tabs and newlines
// kept), anything else as compact JSON escaped as writeJSON escapes.
func runJQ(ctx context.Context, code *gojq.Code, b []byte, out io.Writer) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return errNotJSON
	}
	w := bufio.NewWriter(out)
	defer w.Flush()
	iter := code.RunWithContext(ctx, v)
	for {
		res, ok := iter.Next()
		if !ok {
			return nil
		}
		if err, ok := res.(error); ok {
			var halt *gojq.HaltError
			if errors.As(err, &halt) && halt.Value() == nil {
				return nil
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return fmt.Errorf("--jq: %s", safetext.Excerpt(err.Error(), 300))
		}
		if s, ok := res.(string); ok {
			writeRawText(w, s)
			continue
		}
		j, err := gojq.Marshal(res)
		if err != nil {
			return fmt.Errorf("--jq: %s", err)
		}
		escapeTo(w, j)
		w.WriteByte('\n')
	}
}

// writeRawText writes server text as it is, as jq -r does, but with escape
// sequences and control characters removed (safetext.Clean) from each
// line and tab-separated cell, and ends it with a newline.
func writeRawText(w *bufio.Writer, s string) {
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			w.WriteByte('\n')
		}
		for j, cell := range strings.Split(line, "\t") {
			if j > 0 {
				w.WriteByte('\t')
			}
			w.WriteString(safetext.Clean(cell))
		}
	}
	w.WriteByte('\n')
}

// heapBytes is the heap in use (runtime.ReadMemStats stops the world for
// microseconds; runtime/metrics would cost every start of errtrack its
// package's set-up instead).
func heapBytes() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// watchHeap calls over, once, when the heap passes limit bytes; checked
// every few milliseconds until stop is called.
func watchHeap(limit uint64, over func()) (stop func()) {
	done := make(chan struct{})
	t := time.NewTicker(5 * time.Millisecond)
	go func() {
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if heapBytes() > limit {
					over()
					return
				}
			}
		}
	}()
	return func() { close(done) }
}

// boundedBuffer keeps the first 64 KiB written to it.
type boundedBuffer struct{ bytes.Buffer }

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if room := 64<<10 - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
