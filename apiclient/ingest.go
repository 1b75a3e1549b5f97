package apiclient

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/errtrack/errtrack/internal/dsn"
	"github.com/errtrack/errtrack/internal/safetext"
)

// DSNCheck is how an error tracking backend answered a test event.
type DSNCheck struct {
	URL        string // where the event went
	StatusCode int
	Accepted   bool   // 2xx
	Message    string // the refusal's body, cleaned and short
	Duration   time.Duration
	// RetryAfter is a 429's Retry-After, 0 when it gave none.
	RetryAfter time.Duration
	// Limits are a 429's X-Sentry-Rate-Limits entries as "scope reason"
	// (e.g. "key key_quota"): which quota or rate limit dropped the event.
	Limits []string
}

// IngestOutcome is what an ingestion answer proves, and no more.
type IngestOutcome int

const (
	// IngestAccepted: 2xx. The event was accepted by ingestion; that is
	// not proof the key is active (Sentry's Relay accepts while a new or
	// just-changed key's config is pending, and drops it later).
	IngestAccepted IngestOutcome = iota
	// IngestRateLimited: 429. A quota, spike protection or the key's own
	// rate limit dropped the event; the key itself was not refused.
	IngestRateLimited
	// IngestRefused: 401 or 403. The key was refused (unknown, disabled,
	// deleted, or another project's).
	IngestRefused
	// IngestNotTaken: any other answer (a redirect or 404: no ingestion
	// endpoint there; 400: a body it could not read; 5xx).
	IngestNotTaken
)

// Outcome says what the answer proves.
func (c *DSNCheck) Outcome() IngestOutcome {
	switch {
	case c.Accepted:
		return IngestAccepted
	case c.StatusCode == http.StatusTooManyRequests:
		return IngestRateLimited
	case c.StatusCode == http.StatusUnauthorized || c.StatusCode == http.StatusForbidden:
		return IngestRefused
	}
	return IngestNotTaken
}

// SendTestEvent sends one minimal Sentry envelope (a single error event
// with message) to the ingestion endpoint of dsnText, as an SDK would
// (gitlab-api.md §13). It records an error in the project: call it only
// when the user asked.
//
// The access token is not sent: the DSN's public key is the credential.
// The client's TLS settings (--ca-file) apply; redirects are not followed.
// An answer, accepted or refused, is a DSNCheck; only a request that got
// no answer is an error.
func (c *Client) SendTestEvent(ctx context.Context, dsnText, message string) (*DSNCheck, error) {
	d, err := dsn.Parse(dsnText)
	if err != nil {
		return nil, &APIError{Kind: ErrValidation, Message: err.Error()}
	}
	body, err := envelope(message, time.Now())
	if err != nil {
		return nil, err
	}
	check := &DSNCheck{URL: d.EnvelopeURL()}
	actx, cancel := c.exchangeContext(ctx)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, check.URL, bytes.NewReader(body))
	if err != nil {
		return nil, &APIError{Kind: ErrValidation, Message: "the DSN does not give a usable ingestion URL"}
	}
	req.Header.Set("Content-Type", "application/x-sentry-envelope")
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("X-Sentry-Auth", "Sentry sentry_key="+d.PublicKey+", sentry_version=7, sentry_client="+c.userAgent)
	hc := &http.Client{Transport: c.http.Transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	start := time.Now()
	resp, err := hc.Do(req)
	if err != nil {
		apiErr := c.transportError(ctx, request{method: http.MethodPost}, cutByLimit(actx, err))
		var ae *APIError
		if errors.As(apiErr, &ae) {
			ae.Path = req.URL.Path // not below /api/v4
		}
		c.observe(req, body, start, 1, nil, nil, apiErr)
		return nil, apiErr
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	check.Duration = time.Since(start)
	c.observe(req, body, start, 1, resp, answer, nil)
	check.StatusCode = resp.StatusCode
	check.Accepted = resp.StatusCode >= 200 && resp.StatusCode < 300
	if !check.Accepted {
		check.Message = safetext.Excerpt(string(answer), 200)
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		check.RetryAfter = retryAfter(resp.Header.Get("Retry-After"), time.Now())
		check.Limits = sentryRateLimits(resp.Header.Get("X-Sentry-Rate-Limits"))
	}
	return check, nil
}

// retryAfter reads Retry-After as seconds or an HTTP date, bounded to a
// day; 0 when absent or unreadable.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	var d time.Duration
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		d = time.Duration(min(max(n, 0), 86400)) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = min(max(t.Sub(now), 0), 24*time.Hour).Round(time.Second)
	}
	return d
}

// sentryRateLimits reads Relay's X-Sentry-Rate-Limits,
// "SECONDS:CATEGORIES:SCOPE[:REASON[:NAMESPACES]], …", into "scope reason"
// entries. Scope and reason are Relay's identifiers (lowercase letters and
// underscores); anything else is left out: the text is the server's.
func sentryRateLimits(v string) []string {
	var out []string
	for _, entry := range strings.Split(v, ",") {
		parts := strings.Split(strings.TrimSpace(entry), ":")
		if len(parts) < 3 || !identifier(parts[2]) {
			continue
		}
		s := parts[2]
		if len(parts) > 3 && identifier(parts[3]) {
			s += " " + parts[3]
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
		if len(out) == 4 {
			break
		}
	}
	return out
}

// identifier: 1 to 40 lowercase letters, digits and underscores.
func identifier(s string) bool {
	if s == "" || len(s) > 40 {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_' {
			return false
		}
	}
	return true
}

// envelope is a Sentry envelope holding one error event.
func envelope(message string, now time.Time) ([]byte, error) {
	id := make([]byte, 16)
	if _, err := rand.Read(id); err != nil {
		return nil, err
	}
	eventID := hex.EncodeToString(id)
	ts := now.UTC().Format(time.RFC3339)
	event := fmt.Sprintf(`{"event_id":%q,"timestamp":%q,"level":"error","platform":"other","logger":"errtrack","message":{"formatted":%q}}`,
		eventID, ts, message)
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"event_id":%q,"sent_at":%q}`+"\n", eventID, ts)
	fmt.Fprintf(&b, `{"type":"event","length":%d}`+"\n", len(event))
	b.WriteString(event)
	b.WriteString("\n")
	return b.Bytes(), nil
}

// ProbeDSN asks whether the ingestion endpoint of dsnText answers, without
// sending an event: an OPTIONS request, which records nothing. Any HTTP
// answer is an answer; only a request that got none is an error.
func (c *Client) ProbeDSN(ctx context.Context, dsnText string) (int, error) {
	d, err := dsn.Parse(dsnText)
	if err != nil {
		return 0, &APIError{Kind: ErrValidation, Message: err.Error()}
	}
	actx, cancel := c.exchangeContext(ctx)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodOptions, d.EnvelopeURL(), nil)
	if err != nil {
		return 0, &APIError{Kind: ErrValidation, Message: "the DSN does not give a usable ingestion URL"}
	}
	req.Header.Set("User-Agent", c.userAgent)
	hc := &http.Client{Transport: c.http.Transport,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Do(req)
	if err != nil {
		apiErr := c.transportError(ctx, request{method: http.MethodOptions}, cutByLimit(actx, err))
		var ae *APIError
		if errors.As(apiErr, &ae) {
			ae.Path = req.URL.Path
		}
		return 0, apiErr
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}
