package main

// Questions asked on the terminal: a yes/no confirmation, a token.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/errtrack/errtrack/internal/tokens"
)

// errNoAnswer: the prompt's input ended before an answer.
var errNoAnswer = errors.New("no answer was read (end of input)")

// confirm asks a y/N question on the terminal; anything but y or yes is No.
// It fails when the input ends or Ctrl+C interrupts the question.
func (a *app) confirm(ctx context.Context, question string) (bool, error) {
	ans, err := a.readLine(ctx, question)
	if err != nil {
		if ctx.Err() != nil {
			return false, context.Cause(ctx)
		}
		return false, errNoAnswer
	}
	switch strings.ToLower(strings.TrimSpace(ans)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}

const maxTokenLen = 4096

// readToken reads the token from piped stdin or a hidden prompt.
func (a *app) readToken(ctx context.Context, host string) (string, error) {
	var tok string
	if a.stdinIsTTY() {
		if host != "" { // a Sentry login says its own
			fmt.Fprintf(a.stderr, "Create a personal access token with the api scope at\n  %s\n", tokens.TokenPage(host))
		}
		t, err := a.readSecret(ctx, "Token (input hidden): ")
		if err != nil {
			if ctx.Err() != nil {
				return "", fmt.Errorf("%w: nothing was stored", context.Cause(ctx))
			}
			return "", fmt.Errorf("reading the token: %w", err)
		}
		tok = t
	} else {
		b, err := io.ReadAll(io.LimitReader(a.input(), maxTokenLen+1))
		if err != nil {
			return "", fmt.Errorf("reading the token from standard input: %w", err)
		}
		if len(b) > maxTokenLen {
			return "", usagef("standard input holds more than %d bytes: pipe just the token", maxTokenLen)
		}
		tok = string(b)
	}
	tok = strings.TrimSpace(tok)
	if tok == "" {
		return "", usagef("no token given: pipe it on standard input or type it at the prompt")
	}
	if strings.ContainsAny(tok, " \t\r\n") {
		return "", usagef("the token contains spaces or several lines: pipe just the token")
	}
	return tok, nil
}
