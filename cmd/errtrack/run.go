package main

// A command line's run: the command tree, signals, and the exit status.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
)

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

// setClientVersion names errtrack's version in the client's User-Agent,
// once per process: tests run commands in parallel in one process.
var setClientVersion = sync.OnceFunc(func() { apiclient.Version = appVersion() })
