package apiclient

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// pacer keeps one pace for a host across the process: every client of the
// host (the console's loads, a command's pages, a group's projects) waits
// on it. A 429 pauses them all until the server's reset, instead of each
// request failing on its own; near the limit (RateLimit-Remaining under a
// tenth of RateLimit-Limit), requests are spaced so the rest of the window
// lasts until its reset.
type pacer struct {
	mu    sync.Mutex
	until time.Time // no request before this
}

var (
	pacersMu sync.Mutex
	pacers   = map[string]*pacer{}
)

// pacerFor is the process's pacer of host.
func pacerFor(host string) *pacer {
	pacersMu.Lock()
	defer pacersMu.Unlock()
	p := pacers[host]
	if p == nil {
		p = &pacer{}
		pacers[host] = p
	}
	return p
}

// wait blocks until the host may be sent a request. It returns how long it
// waited, or the context's error.
func (p *pacer) wait(ctx context.Context, now func() time.Time, sleep func(context.Context, time.Duration) error) (time.Duration, error) {
	p.mu.Lock()
	d := p.until.Sub(now())
	p.mu.Unlock()
	if d <= 0 {
		return 0, nil
	}
	if dl, ok := ctx.Deadline(); ok && now().Add(d).After(dl) {
		return 0, &APIError{Kind: ErrRateLimited, Message: "the server's rate limit resets after the time allowed", RetryAfter: d, RetryAt: now().Add(d)}
	}
	return d, sleep(ctx, d)
}

// sentryRateLimit begins the names of Sentry's rate limit headers
// (src/sentry/middleware/ratelimit.py): its 429 has no Retry-After.
const sentryRateLimit = "X-Sentry-Rate-Limit-"

// SentryReset is the wait until X-Sentry-Rate-Limit-Reset (Unix seconds),
// which Sentry's 429 gives instead of a Retry-After.
func SentryReset(h http.Header, now time.Time) (time.Duration, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(h.Get(sentryRateLimit+"Reset")), 10, 64)
	if err != nil || n <= 0 || n > 1<<40 {
		return 0, false
	}
	return max(time.Unix(n, 0).Sub(now), 0), true
}

// observe reads an answer's rate limit headers.
func (p *pacer) observe(resp *http.Response, now time.Time) {
	h := resp.Header
	var next time.Time
	if resp.StatusCode == http.StatusTooManyRequests {
		d, ok := serverWait(h, now)
		if !ok {
			d, ok = SentryReset(h, now)
		}
		if !ok {
			d = time.Second
		}
		next = now.Add(d)
	} else if limit, rem, reset, ok := rateLimit(h); ok && rem*10 < limit {
		// Near the limit: the requests left share the time to the reset.
		next = now.Add(reset.Sub(now) / time.Duration(rem+1))
	}
	if next.IsZero() {
		return
	}
	p.mu.Lock()
	if next.After(p.until) {
		p.until = next
	}
	p.mu.Unlock()
}

// rateLimit reads RateLimit-Limit, -Remaining and -Reset (Unix seconds),
// GitLab's, or else Sentry's X-Sentry-Rate-Limit-Limit, -Remaining and
// -Reset, which mean the same.
func rateLimit(h http.Header) (limit, remaining int, reset time.Time, ok bool) {
	prefix := "RateLimit-"
	if h.Get("RateLimit-Limit") == "" && h.Get(sentryRateLimit+"Limit") != "" {
		prefix = sentryRateLimit
	}
	l, err1 := strconv.Atoi(h.Get(prefix + "Limit"))
	r, err2 := strconv.Atoi(h.Get(prefix + "Remaining"))
	s, err3 := strconv.ParseInt(h.Get(prefix+"Reset"), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil || l <= 0 || r < 0 {
		return 0, 0, time.Time{}, false
	}
	return l, r, time.Unix(s, 0), true
}
