package apiclient

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/errtrack/errtrack/internal/safetext"
)

// request is one API call to make.
type request struct {
	method string
	path   string // below /api/v4, already escaped, e.g. "projects/a%2Fb/error_tracking/settings"
	query  url.Values
	body   any
	// raw, when set, receives the answer's body (token removed), whatever
	// its status.
	raw *[]byte
	// noRetry: never send twice.
	noRetry bool
	// secretField names a field of the answer that holds a new secret; the
	// observer sees it as [redacted].
	secretField string
	// header holds a raw call's extra headers, checked by CheckHeader; they
	// replace the defaults (Accept, Content-Type) but never the token.
	header http.Header
	// prefix is a dialect's API path ("/api/0/"); empty for GitLab's.
	prefix string
	// shown, when set, is what observers see of an answer's body: a
	// dialect's call removes the secrets its answers hold.
	shown func([]byte) []byte
}

func (r request) displayPath() string {
	if r.prefix != "" {
		return r.prefix + r.path
	}
	return "/api/v4/" + r.path
}

// observed is what an observer sees of an answer's body.
func (r request) observed(body []byte) []byte {
	body = redactField(body, r.secretField)
	if r.shown != nil {
		body = r.shown(body)
	}
	return body
}

// newHTTPRequest builds the request and returns the body it carries.
func (c *Client) newHTTPRequest(ctx context.Context, r request) (*http.Request, []byte, error) {
	raw := c.base.String() + r.displayPath()
	if len(r.query) > 0 {
		raw += "?" + r.query.Encode()
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("building request URL: %w", err)
	}
	var body io.Reader
	var b []byte
	if r.body != nil {
		if b, err = json.Marshal(r.body); err != nil {
			return nil, nil, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(context.WithValue(ctx, apiCall{}, true), r.method, u.String(), body)
	if err != nil {
		return nil, nil, err
	}
	// NewRequest re-parses the string; keep the encoded path exactly.
	req.URL = u
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if r.body != nil || r.method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, vs := range r.header {
		req.Header.Del(k)
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	return req, b, nil // the token is the transport's to add (tokenTransport)
}

// do sends r, retrying when that is safe, and decodes a 2xx JSON body into v.
func (c *Client) do(ctx context.Context, r request, v any) (*Response, error) {
	var waited time.Duration
	for attempt := 0; ; attempt++ {
		// One pace for the host: after a 429, or near the limit, every
		// request of the process waits here (not within c.timeout: a
		// rate limit's reset may be longer).
		if _, err := c.pace.wait(ctx, c.Now, c.Sleep); err != nil {
			if apiErr, ok := err.(*APIError); ok {
				apiErr.Method, apiErr.Path = r.method, r.displayPath()
				return nil, apiErr
			}
			return nil, c.transportError(ctx, r, err)
		}
		// One exchange, its body read whole, within c.timeout.
		actx, cancel := c.exchangeContext(ctx)
		req, reqBody, err := c.newHTTPRequest(actx, r)
		if err != nil {
			cancel()
			return nil, err
		}
		start := time.Now()
		resp, body, err := c.send(req)
		err = cutByLimit(actx, err)
		cancel()
		var (
			out    *Response
			apiErr error
			status int
		)
		if err != nil {
			apiErr = c.transportError(ctx, r, err)
			c.observe(req, reqBody, start, attempt+1, nil, nil, apiErr)
		} else {
			c.pace.observe(resp, c.Now())
			status = resp.StatusCode
			out = newResponse(resp, attempt+1, int64(len(body)))
			// The token is removed from what is read, except from the answer
			// that hands out a new secret: that one is decoded as sent (a new
			// token equal to the current one must not become "[redacted]"),
			// and observers see its secret field redacted.
			scrubbed := c.scrubBody(body, false)
			if r.raw != nil {
				*r.raw = scrubbed
			}
			if status >= 200 && status < 300 {
				decoded := scrubbed
				if r.secretField != "" {
					decoded = body
				}
				derr := decodeBody(r.method, r.displayPath(), resp, decoded, v)
				c.observe(req, reqBody, start, attempt+1, resp, r.observed(body), derr)
				return out, derr
			}
			apiErr = errorFromResponse(r.method, r.displayPath(), resp, scrubbed)
			c.observe(req, reqBody, start, attempt+1, resp, r.observed(body), apiErr)
		}
		// One retry decision for a failed connection and an error answer.
		if wait, ok := c.retryWait(ctx, r, attempt, waited, resp, err); ok {
			waited += wait
			c.notifyRetry(r, attempt, wait, status)
			if status == http.StatusTooManyRequests {
				continue // the host's pacer holds every request until the reset
			}
			if c.Sleep(ctx, wait) == nil {
				continue
			}
		}
		if err == nil && r.prefix == "" {
			c.noteVersion(ctx, r, apiErr) // GitLab's release, for its catch-all 404
		}
		return out, apiErr
	}
}

// doOne sends r and decodes the answer into a new T.
func doOne[T any](ctx context.Context, c *Client, r request) (*T, *Response, error) {
	var v T
	resp, err := c.do(ctx, r, &v)
	if err != nil {
		return nil, resp, err
	}
	return &v, resp, nil
}

func (c *Client) notifyRetry(r request, attempt int, wait time.Duration, status int) {
	if c.onRetry != nil {
		c.onRetry(RetryEvent{Method: r.method, Path: r.displayPath(), Attempt: attempt + 1, Wait: wait, StatusCode: status})
	}
}

// send performs one exchange and reads a size-capped body, as sent: the
// caller removes the token from what it passes on.
var readBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func (c *Client) send(req *http.Request) (*http.Response, []byte, error) {
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	// Read into a reused buffer, keep an exact copy: io.ReadAll grows its
	// buffer from 512 bytes, doubling, for every page of a long list.
	buf := readBuffers.Get().(*bytes.Buffer)
	defer readBuffers.Put(buf)
	buf.Reset()
	if _, err := buf.ReadFrom(io.LimitReader(resp.Body, c.maxBody+1)); err != nil {
		return nil, nil, err
	}
	body := bytes.Clone(buf.Bytes())
	if buf.Cap() > 1<<20 {
		*buf = bytes.Buffer{} // a huge answer's buffer is not kept
	}
	if int64(len(body)) > c.maxBody {
		return nil, nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, c.maxBody)
	}
	return resp, body, nil
}

// checkRedirect follows a redirect only for a read, and only within the same
// scheme, host and port. A write is never re-sent: Go turns a redirected
// PATCH or DELETE into a GET (reporting success for a change never made) and
// re-sends a POST on 307/308 (a second key). The token never goes to a host
// the user did not name.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	first := via[0]
	status := 0
	if req.Response != nil {
		status = req.Response.StatusCode
	}
	if first.Method != http.MethodGet && first.Method != http.MethodHead {
		return &redirectError{to: req.URL.String(), status: status, write: true}
	}
	// Another scheme, host or port: refused, so the request (and its
	// token) is never sent there.
	if req.URL.Scheme != first.URL.Scheme || req.URL.Host != first.URL.Host {
		return &redirectError{to: req.URL.Scheme + "://" + req.URL.Host, status: status}
	}
	if len(via) >= maxRedirects {
		return errTooManyRedirects
	}
	return nil
}

// maxRedirects is how many redirects a read follows: GitLab sends one (a
// renamed project's path), a proxy one more.
const maxRedirects = 5

var errTooManyRedirects = fmt.Errorf("stopped after %d redirects", maxRedirects)

type redirectError struct {
	to     string
	status int
	write  bool
}

func (e *redirectError) Error() string { return "server redirected to " + e.to }

// transportError classifies a failure that left no HTTP answer. Its text may
// come from the network (a certificate's names, a proxy's reason phrase), so
// it is cleaned and cut like any server text.
func (c *Client) transportError(ctx context.Context, r request, err error) error {
	e := &APIError{Method: r.method, Path: r.displayPath()}
	cause := c.netText(err)
	var rerr *redirectError
	var certErr *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalidCert x509.CertificateInvalidError
	switch {
	case errors.As(err, &rerr) && rerr.write:
		e.Kind, e.StatusCode = ErrRedirectedWrite, rerr.status
		e.Message = fmt.Sprintf("the server answered %s %s with a redirect to %s; the change was not re-sent there", r.method, r.displayPath(), c.netText(errors.New(rerr.to)))
	case errors.As(err, &rerr):
		e.Kind, e.StatusCode = ErrCrossRedirect, rerr.status
		e.Message = "the server redirected to " + c.netText(errors.New(rerr.to)) + ", another host or scheme; the token is not sent there"
	case errors.Is(err, errTooManyRedirects):
		e.Kind = ErrBadResponse
		e.Message = fmt.Sprintf("the server kept redirecting (stopped after %d redirects)", maxRedirects)
	case errors.Is(err, ErrTooLarge):
		e.Kind = ErrTooLarge
		e.Message = cause
	case headersTooLarge(err):
		e.Kind = ErrTooLarge
		e.Message = fmt.Sprintf("its headers are over %d KiB", maxResponseHeaderBytes>>10)
	case errors.Is(err, context.Canceled) || errors.Is(ctx.Err(), context.Canceled):
		// The caller stopped it (Ctrl+C): whatever error the transport
		// made of that, it is an interruption, not the network.
		e.Kind = ErrCanceled
		e.Message = "request interrupted"
		return errors.Join(e, context.Canceled)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		e.Kind = ErrTimeout
		e.Message = "the time allowed for this request ran out"
	case errors.As(err, new(exchangeCut)):
		e.Kind, e.ExchangeLimit = ErrTimeout, c.timeout
		e.Message = fmt.Sprintf("no complete answer within %s", c.timeout)
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		// Not the exchange limit: the network's own (a dial, a TLS handshake).
		e.Kind = ErrTimeout
		e.Message = "the connection timed out: " + cause
	case strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		// net/http's words, untyped: the host answers plain HTTP.
		e.Kind = ErrPlainHTTP
		e.Message = "the server answered plain HTTP to an HTTPS request"
	case errors.As(err, &certErr) || errors.As(err, &unknownCA) || errors.As(err, &hostErr) || errors.As(err, &invalidCert):
		e.Kind = ErrTLS
		e.Message = "the server's TLS certificate was not accepted: " + cause
	default:
		e.Kind = ErrNetwork
		e.Message = "could not reach the server: " + cause
	}
	return e
}

// netText is an error's text without the request URL, cleaned of control
// characters and the token, and cut to a readable length.
func (c *Client) netText(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return safetext.Excerpt(c.redact(err.Error()), 200)
}

// headersTooLarge recognizes net/http's refusal of an answer whose headers
// pass MaxResponseHeaderBytes, which it returns untyped.
func headersTooLarge(err error) bool {
	return strings.Contains(err.Error(), "server response headers exceeded")
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// redactField replaces the string value of field, wherever it appears at the
// top level of a JSON object, with [redacted].
func redactField(body []byte, field string) []byte {
	if field == "" {
		return body
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(body, &m) != nil {
		return []byte("[answer not shown: it holds a secret]")
	}
	if _, ok := m[field]; ok {
		m[field] = json.RawMessage(`"[redacted]"`)
	}
	out, err := json.Marshal(m)
	if err != nil {
		return []byte("[answer not shown: it holds a secret]")
	}
	return out
}
