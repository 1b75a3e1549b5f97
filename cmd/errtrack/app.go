package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/term"

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
	// timeout bounds each command's exchanges with the server (--timeout);
	// deadlineAt is when the last bound set with it ends.
	timeout    time.Duration
	deadlineAt time.Time
	// exchangeDefault, when set, replaces apiclient.DefaultTimeout (tests).
	exchangeDefault time.Duration
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
