// Package apiclienttest is test support for the packages whose tests build
// an apiclient.Client (or a Sentry client on it): the retries and the
// clock errtrack itself never changes. No errtrack code outside tests
// imports it (make deadcode names it as test support).
package apiclienttest

import (
	"context"
	"time"

	"github.com/errtrack/errtrack/apiclient"
)

// WithRetries bounds retries of idempotent requests: at most n retries and
// at most maxWait of waiting in all. WithRetries(0, 0) turns them off, so
// a test's failing server fails at once.
func WithRetries(n int, maxWait time.Duration) apiclient.Option {
	return func(c *apiclient.Client) { c.MaxRetries, c.MaxWait = n, maxWait }
}

// WithClock replaces the clock and the sleep of the client's retries and
// of the host's pace: a test makes time virtual with it (a mock server's
// Now moved by sleep).
func WithClock(now func() time.Time, sleep func(ctx context.Context, d time.Duration) error) apiclient.Option {
	return func(c *apiclient.Client) { c.Now, c.Sleep = now, sleep }
}
