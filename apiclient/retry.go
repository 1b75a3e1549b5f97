package apiclient

// Retries: which failures are sent again, after how long.

import (
	"context"
	"crypto/tls"
	"errors"
	"net/http"
	"strings"
	"time"
)

// retryWait decides whether to retry and how long to wait first. A read
// (GET, HEAD) is retried on any 5xx, a 429 and a connection failure; a
// PUT, PATCH or DELETE only where the server surely did nothing or did it
// once (429, 502, 503, 504, a failed connection); a POST only on a 429,
// which refuses it before it is handled: any other failure of a POST may
// have minted a key, and a second send a second one. A wait may be long (a
// rate limit's reset) as long as it ends within the caller's deadline.
func (c *Client) retryWait(ctx context.Context, r request, attempt int, waited time.Duration, resp *http.Response, err error) (time.Duration, bool) {
	if r.noRetry || attempt >= c.MaxRetries || ctx.Err() != nil {
		return 0, false
	}
	read := r.method == http.MethodGet || r.method == http.MethodHead
	if err != nil {
		if r.method == http.MethodPost {
			return 0, false
		}
		var rerr *redirectError
		if errors.As(err, &rerr) || errors.Is(err, errTooManyRedirects) || errors.Is(err, ErrTooLarge) || headersTooLarge(err) || errors.Is(err, context.Canceled) {
			return 0, false
		}
		var certErr *tls.CertificateVerificationError
		if errors.As(err, &certErr) {
			return 0, false
		}
	} else {
		switch code := resp.StatusCode; {
		case code == http.StatusTooManyRequests:
			// Refused before it was handled (GitLab's throttle answers
			// before the request reaches the API): sent again after the
			// reset, a POST too, it cannot make a second key.
		case r.method == http.MethodPost:
			return 0, false
		case read && code >= 500:
		case code == http.StatusBadGateway, code == http.StatusServiceUnavailable, code == http.StatusGatewayTimeout:
		default:
			return 0, false
		}
	}
	wait := c.backoff(attempt)
	if resp != nil {
		if d, ok := serverWait(resp.Header, time.Now()); ok {
			wait = d
		}
	}
	if dl, ok := ctx.Deadline(); ok && time.Now().Add(wait).After(dl) {
		return 0, false
	}
	if waited+wait > c.MaxWait {
		return 0, false
	}
	return wait, true
}

// backoff doubles from 200 ms, with up to a quarter more of jitter (from
// c.jitter, which tests replace) so clients do not retry in step.
func (c *Client) backoff(attempt int) time.Duration {
	d := 200 * time.Millisecond << attempt
	return d + time.Duration(c.jitter(int64(d/4+1)))
}

// serverWait reads Retry-After (seconds or HTTP date) or RateLimit-Reset (Unix seconds).
func serverWait(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After")); v != "" {
		if n := atoiHeader(h, "Retry-After"); n > 0 || v == "0" {
			return time.Duration(n) * time.Second, true
		}
		if t, err := http.ParseTime(v); err == nil {
			return max(t.Sub(now), 0), true
		}
	}
	if n := atoiHeader(h, "RateLimit-Reset"); n > 0 {
		return max(time.Unix(int64(n), 0).Sub(now), 0), true
	}
	return 0, false
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
