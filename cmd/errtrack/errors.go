package main

// The errors a command ends with, and the exit statuses they map to.

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/errtrack/errtrack/internal/explain"
)

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

// check's exit statuses, beside exitOK and exitFailure (could not check).
const (
	exitFindings = 3
	exitToken    = 4
)

// exitStatus ends a command with a status of its own, its words already
// written.
type exitStatus struct {
	code int
	err  error
}

func (e exitStatus) Error() string { return e.err.Error() }

// quitUnfinished: the user quit the console with a change under way or at
// a question; the notes above said what. It exits 130, as a command
// interrupted there does.
type quitUnfinished struct{}

func (quitUnfinished) Error() string { return "quit with a change unfinished" }

// ledgerError is the ledger that could not be opened, in words.
type ledgerError struct {
	words string
	err   error
}

func (e *ledgerError) Error() string { return e.words }
func (e *ledgerError) Unwrap() error { return e.err }

// sentryProblem is a Sentry failure with the host it came from, worded by
// sentryWords.
type sentryProblem struct {
	base string
	err  error
}

func (e *sentryProblem) Error() string { return e.err.Error() }
func (e *sentryProblem) Unwrap() error { return e.err }

// reportedf prints an error line now and marks it reported.
func reportedf(a *app, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintf(a.stderr, "errtrack: %s\n", explain.Text(msg))
	return reported{errors.New(msg)}
}
