package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"
	"syscall"

	"github.com/charmbracelet/x/term"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
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
	keyring        tokenStore
	configPath     string // empty: the default path
	stdinIsTTY     func() bool
	readSecret     func(prompt string) (string, error)
	readLine       func(prompt string) (string, error)

	// lastHost is the host the failing command talked to, for error advice.
	lastHost string
	// program is the running console, for messages from outside its loop.
	program atomic.Pointer[tea.Program]
}

func newApp() *app {
	a := &app{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		getenv:     os.Getenv,
		keyring:    keyring.New(),
		stdinIsTTY: func() bool { return term.IsTerminal(os.Stdin.Fd()) },
	}
	a.readSecret = func(prompt string) (string, error) {
		fmt.Fprint(a.stderr, prompt)
		b, err := term.ReadPassword(os.Stdin.Fd())
		fmt.Fprintln(a.stderr)
		return string(b), err
	}
	a.readLine = func(prompt string) (string, error) {
		fmt.Fprint(a.stderr, prompt)
		return readLine(a.stdin)
	}
	return a
}

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// usageError marks a mistake in how the command was called.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// reported marks an error already written to stderr.
type reported struct{ err error }

func (e reported) Error() string { return e.err.Error() }

func (a *app) run(args []string) (code int) {
	defer func() {
		// A bug must not leave a stack trace as the user's only answer.
		if r := recover(); r != nil {
			fmt.Fprintf(a.stderr, "errtrack: internal error: %v\nThis is a bug in errtrack; please report it with the command you ran (leave out any token).\n", r)
			code = exitFailure
		}
	}()
	apiclient.Version = appVersion()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	root := a.rootCmd()
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	if err == nil {
		return exitOK
	}
	var ue usageError
	var rep reported
	switch {
	case errors.As(err, &rep):
		return exitFailure
	case errors.As(err, &ue) || isCobraUsage(err):
		path := "errtrack"
		if cmd != nil {
			path = cmd.CommandPath()
		}
		fmt.Fprintf(a.stderr, "errtrack: %s\nRun '%s --help' for usage.\n", err, path)
		return exitUsage
	}
	fmt.Fprintf(a.stderr, "errtrack: %s\n", explain.Error(err, explain.Context{Host: a.lastHost, Retry: "run the command again"}))
	return exitFailure
}

// isCobraUsage recognizes cobra's own argument errors, which it returns untyped.
func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand flag", "flag needs an argument", "invalid argument", "accepts ", "requires at least", "required flag"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

func readLine(r io.Reader) (string, error) {
	var b []byte
	buf := make([]byte, 1)
	for {
		n, err := r.Read(buf)
		if n == 1 {
			if buf[0] == '\n' {
				break
			}
			b = append(b, buf[0])
			if len(b) > 64<<10 {
				return "", errors.New("input line too long")
			}
		}
		if err != nil {
			if err == io.EOF && len(b) > 0 {
				break
			}
			return string(b), err
		}
	}
	if len(b) > 0 && b[len(b)-1] == '\r' {
		b = b[:len(b)-1]
	}
	return string(b), nil
}
