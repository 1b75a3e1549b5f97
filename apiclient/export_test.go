package apiclient

import (
	"context"
	"net/http"
	"time"
)

// Options only this package's tests set: errtrack's own code keeps New's
// bounds (its --timeout bounds a whole command through the context), so
// they are not part of the package's API. Other packages' tests set
// retries and the clock with apiclient/apiclienttest.

// WithMaxBody caps the size of a response body.
func WithMaxBody(n int64) Option { return func(c *Client) { c.maxBody = n } }

// WithMaxList caps the bytes read for one listing across all its pages.
func WithMaxList(n int64) Option { return func(c *Client) { c.maxList = n } }

// WithClock replaces the clock and the sleep the client's retries and the
// host's pace use: tests make time virtual with it (the mock server's Now
// moved by sleep).
func WithClock(now func() time.Time, sleep func(ctx context.Context, d time.Duration) error) Option {
	return func(c *Client) { c.Now, c.Sleep = now, sleep }
}

// WithRetries bounds retries of idempotent requests: at most n retries and
// at most maxWait of waiting in all. WithRetries(0, 0) disables them.
func WithRetries(n int, maxWait time.Duration) Option {
	return func(c *Client) { c.MaxRetries, c.MaxWait = n, maxWait }
}

// WithPageConcurrency sets how many pages of a list are fetched at once;
// 1 pages sequentially.
func WithPageConcurrency(n int) Option {
	return func(c *Client) {
		if n >= 1 {
			c.concurrency = n
		}
	}
}

// WithHTTPClient makes the client send through hc's Transport (Go's
// default when nil), under errtrack's token rules and pace; hc's redirect
// policy, timeout and cookie jar are not used: errtrack's own apply. Its
// --ca-file and header bound apply only to the transport errtrack makes.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) {
		c.injected = http.DefaultTransport
		if hc != nil && hc.Transport != nil {
			c.injected = hc.Transport
		}
	}
}
