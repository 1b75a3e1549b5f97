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
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, check.URL, bytes.NewReader(body))
	if err != nil {
		return nil, &APIError{Kind: ErrValidation, Message: "the DSN does not give a usable ingestion URL"}
	}
	req.Header.Set("Content-Type", "application/x-sentry-envelope")
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("X-Sentry-Auth", "Sentry sentry_key="+d.PublicKey+", sentry_version=7, sentry_client="+c.userAgent)
	hc := &http.Client{Transport: c.http.Transport, Timeout: c.timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	start := time.Now()
	resp, err := hc.Do(req)
	if err != nil {
		apiErr := c.transportError(ctx, request{method: http.MethodPost}, err)
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
	return check, nil
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
	req, err := http.NewRequestWithContext(ctx, http.MethodOptions, d.EnvelopeURL(), nil)
	if err != nil {
		return 0, &APIError{Kind: ErrValidation, Message: "the DSN does not give a usable ingestion URL"}
	}
	req.Header.Set("User-Agent", c.userAgent)
	hc := &http.Client{Transport: c.http.Transport, Timeout: c.timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.Do(req)
	if err != nil {
		apiErr := c.transportError(ctx, request{method: http.MethodOptions}, err)
		var ae *APIError
		if errors.As(apiErr, &ae) {
			ae.Path = req.URL.Path
		}
		return 0, apiErr
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}
