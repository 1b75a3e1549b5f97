package main

// Words for an error on the command line: what went wrong and what to do.

import (
	"errors"
	"fmt"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/keyring"
)

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
	if errors.Is(err, apiclient.ErrTimeout) {
		s += a.timeoutWords(err)
	}
	var apiErr *apiclient.APIError
	if errors.Is(err, apiclient.ErrRateLimited) && errors.As(err, &apiErr) && a.timeout > 0 && apiErr.RetryAfter > a.timeout {
		s += fmt.Sprintf(" That is past --timeout (%s), so errtrack did not wait.", a.timeout)
	}
	return s
}

// timeoutWords says which bound ended a request that timed out, and
// advises a longer --timeout only where one would let it finish.
func (a *app) timeoutWords(err error) string {
	var apiErr *apiclient.APIError
	var limit time.Duration
	if errors.As(err, &apiErr) {
		limit = apiErr.ExchangeLimit
	}
	switch {
	case a.timeoutRanOut():
		return fmt.Sprintf(" --timeout (%s) ran out: for a slow server, raise it.", a.timeout)
	case limit > 0 && a.timeout > limit:
		return fmt.Sprintf(" One answer may take at most %s, whatever --timeout (%s) says, so a longer --timeout would not help.", limit, a.timeout)
	case limit > 0:
		return fmt.Sprintf(" One answer may take at most %s; a --timeout longer than that lets it take as long.", limit)
	}
	return "" // the network's own timeout: a longer --timeout would not help
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

// tokenError: the token is missing, expired, revoked or lacks what the
// read needs.
func tokenError(err error) bool {
	for _, e := range []error{apiclient.ErrUnauthorized, apiclient.ErrTokenExpired, apiclient.ErrTokenRevoked, apiclient.ErrInsufficientScope, apiclient.ErrBadToken, keyring.ErrNotFound, sentry.ErrNoToken} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// checkFailed ends check on an error: 4 for the token, 2 for a usage
// mistake, else 1; what names where it happened.
func (a *app) checkFailed(err error, what string) error {
	var ue usageError
	if errors.As(err, &ue) {
		return err
	}
	msg := a.explain(err, "run errtrack check again")
	if what != "" {
		msg = what + ": " + msg
	}
	fmt.Fprintf(a.stderr, "errtrack: %s\n", explain.Text(msg))
	if tokenError(err) {
		return exitStatus{code: exitToken, err: err}
	}
	return exitStatus{code: exitFailure, err: err}
}

// chooseScope is how a group change names one scope of a variable
// several scopes have.
const chooseScope = "choose one with --environment-scope"

// cliProblems word a rotation's problem for a shell: again runs it again.
func cliProblems(again string) rotation.ProblemWords {
	return rotation.ProblemWords{Again: again,
		Keys: func(rec ledger.Record) string { return fmt.Sprintf("errtrack keys list -p %d", rec.ProjectID) },
		Restart: func(rec ledger.Record) string {
			return fmt.Sprintf("errtrack keys rotate -p %d --old %s --restart", rec.ProjectID, keystore.KeyRef(rotation.OldKeyOf(rec)))
		}}
}
