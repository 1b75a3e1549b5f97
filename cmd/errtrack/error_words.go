package main

import (
	"errors"
	"fmt"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/workflow"
)

// explain words err for this command line.
func (a *app) explain(err error, retry string) string {
	var le *ledgerError
	if errors.As(err, &le) {
		return explain.Text(le.words)
	}
	if w, ok := workflow.Problem(err, retry); ok {
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

// sentryExplain words err when it came from a Sentry, naming the Sentry
// the error carries; ok false otherwise.
func (a *app) sentryExplain(err error) (string, bool) {
	var p *sentryProblem
	var se *sentry.Error
	var te *sentry.TokenError
	switch {
	case errors.As(err, &p):
		return sentryWords(p.err, p.base), true
	case errors.As(err, &se):
		return sentryWords(err, se.Base), true
	case errors.As(err, &te):
		return sentryWords(err, te.Base), true
	case errors.Is(err, sentry.ErrNoToken):
		return sentryWords(err, ""), true
	}
	return "", false
}

// sentryWords says what a Sentry failure means and what to do (the
// console words them alike).
func sentryWords(err error, base string) string {
	return explain.Sentry(err, base, explain.Context{Retry: "try again"})
}
