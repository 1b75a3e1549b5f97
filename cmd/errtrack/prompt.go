package main

import (
	"context"
	"errors"
	"strings"
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
