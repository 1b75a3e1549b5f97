package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/keyring"
)

// tokenStore is the keyring as the commands need it.
type tokenStore interface {
	Get(ctx context.Context, host string) (string, error)
	Set(ctx context.Context, host, token string) error
	Delete(ctx context.Context, host string) error
}

// app holds what the commands touch outside the process, so tests can swap it.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
	unsetenv       func(string)
	keyring        tokenStore
	configPath     string // empty: the default path
	stdinIsTTY     func() bool
	// consoleTTY reports whether standard input and output are both terminals.
	consoleTTY func() bool
	readSecret func(ctx context.Context, prompt string) (string, error)
	readLine   func(ctx context.Context, prompt string) (string, error)
	// signals delivers SIGINT, SIGTERM and SIGHUP; nil means the process's own.
	signals chan os.Signal
	// dir is where git looks for the clone's remotes; "" is the working directory.
	dir string
	now func() time.Time

	// sentryKeyring keeps Sentry tokens by Sentry base URL.
	sentryKeyring tokenStore
	// demoSentry is the demo's mock Sentry's URL (the demo console only).
	demoSentry string
	// sentryEnvToken is SENTRY_AUTH_TOKEN, read at start and removed from
	// the environment; sentryEnvURL is SENTRY_URL, the host it is for.
	sentryEnvToken, sentryEnvURL string

	// envToken is GITLAB_TOKEN (or GITLAB_ACCESS_TOKEN, as glab reads it),
	// read once at start and then removed from the environment so no child
	// process inherits it; envTokenName says which.
	envToken, envTokenName string
	// pausedUntil is the end of the last wait said on stderr.
	pauseMu     sync.Mutex
	pausedUntil time.Time
	// timeout bounds each command's exchanges with the server (--timeout).
	timeout time.Duration
	// lastHost is the host the failing command talked to, for error advice.
	lastHost string
	// hostFromURL: the host came from a --project URL alone.
	hostFromURL bool
	// caFileUsed is the --ca-file given, remembered for the host once a
	// request to it worked.
	caFileUsed string
	// program is the running console, for messages from outside its loop.
	program atomic.Pointer[tea.Program]
	// jqLimit, when set, replaces jqMemoryLimit (tests).
	jqLimit uint64
	// in buffers inOf (standard input) for prompts and reads of it.
	inMu sync.Mutex
	in   *bufio.Reader
	inOf io.Reader
}

// tokenEnvs are the variables a token is read from, first set first.
var tokenEnvs = []string{"GITLAB_TOKEN", "GITLAB_ACCESS_TOKEN"}

// hostEnvs are the variables a host is read from, as glab reads them.
var hostEnvs = []string{"GITLAB_HOST", "GITLAB_URI", "GL_HOST"}

func newApp() *app {
	a := &app{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		getenv:   os.Getenv,
		unsetenv: func(k string) { _ = os.Unsetenv(k) },
		keyring:  keyring.New(),
		// The Sentry store is the same keyring under its own service.
		sentryKeyring: keyring.New().Sentry(),
		stdinIsTTY:    func() bool { return term.IsTerminal(os.Stdin.Fd()) },
		consoleTTY:    func() bool { return term.IsTerminal(os.Stdin.Fd()) && term.IsTerminal(os.Stdout.Fd()) },
		now:           time.Now,
	}
	a.readSecret = func(ctx context.Context, prompt string) (string, error) {
		fd := os.Stdin.Fd()
		saved, _ := term.GetState(fd)
		fmt.Fprint(a.stderr, prompt)
		s, err := interruptible(ctx, func() (string, error) {
			b, err := term.ReadPassword(fd)
			return string(b), err
		})
		if err != nil && saved != nil {
			_ = term.Restore(fd, saved) // Ctrl+C: echo back on before leaving
		}
		fmt.Fprintln(a.stderr)
		return s, err
	}
	a.readLine = func(ctx context.Context, prompt string) (string, error) {
		fmt.Fprint(a.stderr, prompt)
		s, err := interruptible(ctx, a.readStdinLine)
		if ctx.Err() != nil {
			fmt.Fprintln(a.stderr)
		}
		return s, err
	}
	return a
}

// interruptible runs a blocking read and gives up when ctx ends (Ctrl+C at a
// prompt); the read is left behind, which is fine since the command ends.
func interruptible(ctx context.Context, read func() (string, error)) (string, error) {
	type result struct {
		s   string
		err error
	}
	ch := make(chan result, 1)
	go func() { s, err := read(); ch <- result{s, err} }()
	select {
	case r := <-ch:
		return r.s, r.err
	case <-ctx.Done():
		return "", context.Cause(ctx)
	}
}

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// usageError marks a mistake in how the command was called. bare: the
// words (a flag parser's) do not say what to give, so --help is pointed to.
type usageError struct {
	err  error
	bare bool
}

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{err: fmt.Errorf(format, args...)} }

// reported marks an error already written to stderr.
type reported struct{ err error }

func (e reported) Error() string { return e.err.Error() }

// annotStopsOnSignal marks a command for which a signal is the normal way to
// stop (the mock server): it exits 0 when it stopped cleanly.
const annotStopsOnSignal = "errtrack/stops-on-signal"

// interrupted is the cause of the command's context when a signal ends it.
type interrupted struct{ sig os.Signal }

func (e interrupted) Error() string { return "interrupted" }

// code is the shell's convention for a death by signal: 128 + its number.
func (e interrupted) code() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}

func (a *app) run(args []string) (code int) {
	defer func() {
		// A bug must not leave a stack trace as the user's only answer.
		if r := recover(); r != nil {
			fmt.Fprintf(a.stderr, "errtrack: internal error: %s\nThis is a bug in errtrack; please report it with the command you ran (leave out any token).\n", explain.Text(fmt.Sprint(r)))
			code = exitFailure
		}
	}()
	setClientVersion()
	// net/http reads GODEBUG before main runs: with http2debug it would
	// print every request header, the token included. It cannot be turned
	// off from here, so errtrack does not start.
	if strings.Contains(a.getenv("GODEBUG"), "http2debug") {
		fmt.Fprintln(a.stderr, "errtrack: GODEBUG=http2debug prints request headers, the token included: unset it (errtrack --debug shows the requests with the token removed).")
		return exitUsage
	}
	for _, name := range tokenEnvs {
		if t := strings.TrimSpace(a.getenv(name)); t != "" && a.envToken == "" {
			a.envToken, a.envTokenName = t, name
		}
		a.unsetenv(name)
	}
	if t := strings.TrimSpace(a.getenv("SENTRY_AUTH_TOKEN")); t != "" {
		a.sentryEnvToken, a.sentryEnvURL = t, strings.TrimSpace(a.getenv("SENTRY_URL"))
	}
	a.unsetenv("SENTRY_AUTH_TOKEN")
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	defer a.handleSignals(cancel)()
	root := a.rootCmdFor(args)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	var intr interrupted
	interruptedBy := errors.As(context.Cause(ctx), &intr)
	if err == nil {
		if interruptedBy && cmd.Annotations[annotStopsOnSignal] == "" {
			return intr.code()
		}
		return exitOK
	}
	var ue usageError
	var rep reported
	var st exitStatus
	switch {
	case errors.As(err, &st) && !interruptedBy:
		return st.code // its words are written
	case errors.As(err, &quitUnfinished{}):
		return 130
	case errors.As(err, &rep):
	case errors.As(err, &ue) && !ue.bare:
		// errtrack's own usage errors say what to give: said once.
		fmt.Fprintf(a.stderr, "errtrack: %s\n", explain.Text(err.Error()))
		return exitUsage
	case errors.As(err, &ue) || isCobraUsage(err):
		path := "errtrack"
		if cmd != nil {
			path = cmd.CommandPath()
		}
		fmt.Fprintf(a.stderr, "errtrack: %s\nRun '%s --help' for usage.\n", explain.Text(err.Error()), path)
		return exitUsage
	case interruptedBy && (err == error(intr) || errors.Is(err, apiclient.ErrCanceled)):
		fmt.Fprintln(a.stderr, "errtrack: interrupted.")
	default:
		fmt.Fprintf(a.stderr, "errtrack: %s\n", a.explain(err, "run the command again"))
	}
	if interruptedBy {
		return intr.code()
	}
	return exitFailure
}

// explain words err for this command line.
func (a *app) explain(err error, retry string) string {
	var le *ledgerError
	if errors.As(err, &le) {
		return explain.Text(le.words)
	}
	if w, ok := rotation.Problem(err, cliProblems(retry)); ok {
		return explain.Text(w)
	}
	if w, ok := a.sentryExplain(err); ok {
		return explain.Text(w)
	}
	c := explain.Context{Host: a.lastHost, Retry: retry}
	c.TokenEnv = a.envTokenName
	s := explain.Error(err, c)
	if errors.Is(err, apiclient.ErrTimeout) && a.timeout > 0 {
		s += fmt.Sprintf(" For a slow server, raise --timeout (now %s).", a.timeout)
	}
	var apiErr *apiclient.APIError
	if errors.Is(err, apiclient.ErrRateLimited) && errors.As(err, &apiErr) && a.timeout > 0 && apiErr.RetryAfter > a.timeout {
		s += fmt.Sprintf(" That is past --timeout (%s), so errtrack did not wait.", a.timeout)
	}
	return s
}

// handleSignals turns SIGINT, SIGTERM and SIGHUP into the cancellation of
// ctx with the signal as its cause: requests stop, prompts return, and the
// console, which runs on ctx, restores the terminal and exits. A second
// signal, or a program still running 3 s after the first, exits at once.
func (a *app) handleSignals(cancel context.CancelCauseFunc) (stop func()) {
	ch := a.signals
	if ch == nil {
		ch = make(chan os.Signal, 2)
		signal.Notify(ch, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	}
	done := make(chan struct{})
	go func() {
		var first os.Signal
		select {
		case first = <-ch:
			cancel(interrupted{first})
		case <-done:
			return
		}
		select {
		case s := <-ch:
			os.Exit(interrupted{s}.code())
		case <-time.After(3 * time.Second):
			os.Exit(interrupted{first}.code())
		case <-done:
		}
	}()
	return func() {
		if a.signals == nil {
			signal.Stop(ch)
		}
		close(done)
	}
}

// isCobraUsage recognizes cobra's own argument errors, which it returns untyped.
func isCobraUsage(err error) bool {
	// A server's answer is never a usage error, whatever its words.
	var apiErr *apiclient.APIError
	if errors.As(err, &apiErr) {
		return false
	}
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "flag needs an argument", "invalid argument", "accepts ", "requires at least", "required flag"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

// maxLine bounds a line read at a prompt.
const maxLine = 64 << 10

// input is standard input, buffered once for the whole command: every
// prompt and every read of it (--input -, --token-stdin) takes its bytes
// from the same buffer, so a line read ahead is never lost.
func (a *app) input() *bufio.Reader {
	a.inMu.Lock()
	defer a.inMu.Unlock()
	if a.in == nil || a.inOf != a.stdin {
		a.in, a.inOf = bufio.NewReaderSize(a.stdin, maxLine), a.stdin
	}
	return a.in
}

// readStdinLine reads one line of standard input, without its line end
// (\n or \r\n); a last line without one is a line too.
func (a *app) readStdinLine() (string, error) {
	line, err := a.input().ReadSlice('\n')
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return "", errors.New("input line too long")
	case err == io.EOF && len(line) > 0:
	case err != nil:
		return string(line), err
	}
	return strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r"), nil
}

// setClientVersion names errtrack's version in the client's User-Agent,
// once per process: tests run commands in parallel in one process.
var setClientVersion = sync.OnceFunc(func() { apiclient.Version = appVersion() })
