package tui

import (
	"errors"

	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/keystore"
)

// sentryFailure is a failure of the Sentry at base: it is worded as the
// Sentry's (its token, its login), and a 401 of it never sends the user to
// GitLab's login screen.
type sentryFailure struct {
	base string
	err  error
}

func (e *sentryFailure) Error() string { return e.err.Error() }
func (e *sentryFailure) Unwrap() error { return e.err }

// atSentry marks err as the failure of store's Sentry (nil stays nil).
func atSentry(store keystore.KeyStore, err error) error {
	if err == nil {
		return nil
	}
	return &sentryFailure{base: keystore.SentryBase(store), err: err}
}

// explainsSentry: err came from a Sentry or its token.
func explainsSentry(err error) bool {
	var sf *sentryFailure
	return errors.As(err, &sf) || explain.FromSentry(err)
}
