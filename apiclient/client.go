// Package apiclient is an HTTP client for GitLab's error tracking endpoints
// and the few others the console needs (user, token, projects).
//
// Every method takes a context first and returns a typed *APIError on
// failure. The client never prints, logs or puts the token in an error.
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
	"os"
	"strings"
	"time"

	"github.com/errtrack/errtrack/internal/hosturl"
)

// Defaults, overridable with options.
const (
	DefaultTimeout     = 30 * time.Second
	DefaultMaxBody     = 16 << 20
	DefaultMaxRetries  = 3
	DefaultMaxWait     = 20 * time.Second
	DefaultConcurrency = 4
	perPage            = 100
	maxPages           = 2000
)

// Version is sent in the User-Agent; cmd/errtrack sets it at start.
var Version = "dev"

// Client talks to one GitLab instance with one token.
type Client struct {
	base        *url.URL // normalized host, no trailing slash
	token       string
	http        *http.Client
	userAgent   string
	maxBody     int64
	maxRetries  int
	maxWait     time.Duration
	concurrency int
	allowHTTP   bool
	caFile      string
	timeout     time.Duration
	sleep       func(context.Context, time.Duration) error
	onRetry     func(RetryEvent)
}

// RetryEvent describes a retry about to happen, for a front end to show
// ("rate limited, retrying in 3 s").
type RetryEvent struct {
	Method, Path string
	Attempt      int           // 1 for the first retry
	Wait         time.Duration // before the retry
	StatusCode   int           // 0 for a connection error
}

// WithRetryNotify calls f before each retry. f must not block.
func WithRetryNotify(f func(RetryEvent)) Option { return func(c *Client) { c.onRetry = f } }

// Option configures a Client.
type Option func(*Client)

// WithTimeout bounds each HTTP exchange, body included.
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }

// WithCAFile trusts the PEM certificates in file, for self-managed GitLab
// behind a private CA, on top of the system roots.
func WithCAFile(file string) Option { return func(c *Client) { c.caFile = file } }

// WithInsecureHTTP allows plain http:// to a non-loopback host. The token
// then crosses the network in clear text; only for trusted test networks.
func WithInsecureHTTP() Option { return func(c *Client) { c.allowHTTP = true } }

// WithMaxBody caps the size of a response body.
func WithMaxBody(n int64) Option { return func(c *Client) { c.maxBody = n } }

// WithRetries bounds retries of idempotent requests: at most n retries and
// at most maxWait of waiting in all. WithRetries(0, 0) disables them.
func WithRetries(n int, maxWait time.Duration) Option {
	return func(c *Client) { c.maxRetries, c.maxWait = n, maxWait }
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

// New returns a client for the GitLab at baseURL ("https://gitlab.example.com").
func New(baseURL, token string, opts ...Option) (*Client, error) {
	norm, err := hosturl.Normalize(baseURL)
	if err != nil {
		return nil, err
	}
	base, _ := url.Parse(norm)
	c := &Client{
		base:        base,
		token:       token,
		userAgent:   "errtrack/" + Version,
		maxBody:     DefaultMaxBody,
		maxRetries:  DefaultMaxRetries,
		maxWait:     DefaultMaxWait,
		concurrency: DefaultConcurrency,
		timeout:     DefaultTimeout,
		sleep:       sleepCtx,
	}
	for _, o := range opts {
		o(c)
	}
	if base.Scheme == "http" && !c.allowHTTP && !hosturl.IsLoopback(norm) {
		return nil, fmt.Errorf("%w to %s: use https://, or allow plain HTTP explicitly for a trusted test network", ErrInsecureURL, base.Host)
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 16
	if c.caFile != "" {
		pool, err := loadCA(c.caFile)
		if err != nil {
			return nil, err
		}
		t.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	c.http = &http.Client{Transport: t, Timeout: c.timeout, CheckRedirect: c.checkRedirect}
	return c, nil
}

// BaseURL is the normalized host URL the client talks to.
func (c *Client) BaseURL() string { return c.base.String() }

func loadCA(file string) (*x509.CertPool, error) {
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading CA file: %w", err)
	}
	pool, err := x509.SystemCertPool()
	if err != nil || pool == nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("CA file %s holds no PEM certificate", file)
	}
	return pool, nil
}

// checkRedirect follows redirects only within the same scheme, host and port:
// the token header would otherwise go to a host the user never named.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 5 {
		return errors.New("stopped after 5 redirects")
	}
	orig := via[0].URL
	if req.URL.Scheme != orig.Scheme || req.URL.Host != orig.Host {
		req.Header.Del("PRIVATE-TOKEN")
		req.Header.Del("Authorization")
		return &redirectError{to: req.URL.Scheme + "://" + req.URL.Host}
	}
	return nil
}

type redirectError struct{ to string }

func (e *redirectError) Error() string { return "server redirected to " + e.to }

// Response is one HTTP response with GitLab's paging headers read.
type Response struct {
	*http.Response
	Page, PerPage, NextPage, PrevPage, TotalPages, Total int
	// HasTotal is false when the server omitted X-Total/X-Total-Pages.
	HasTotal bool
}

func newResponse(r *http.Response) *Response {
	resp := &Response{Response: r}
	h := r.Header
	resp.Page = atoiHeader(h, "X-Page")
	resp.PerPage = atoiHeader(h, "X-Per-Page")
	resp.NextPage = atoiHeader(h, "X-Next-Page")
	resp.PrevPage = atoiHeader(h, "X-Prev-Page")
	if h.Get("X-Total-Pages") != "" {
		resp.TotalPages = atoiHeader(h, "X-Total-Pages")
		resp.Total = atoiHeader(h, "X-Total")
		resp.HasTotal = true
	}
	return resp
}

func atoiHeader(h http.Header, name string) int {
	v := strings.TrimSpace(h.Get(name))
	n := 0
	for _, ch := range v {
		if ch < '0' || ch > '9' || n > 1e8 {
			return 0
		}
		n = n*10 + int(ch-'0')
	}
	return n
}

// request is one API call to make.
type request struct {
	method string
	path   string // below /api/v4, already escaped, e.g. "projects/a%2Fb/error_tracking/settings"
	query  url.Values
	body   any
}

func (c *Client) newHTTPRequest(ctx context.Context, r request) (*http.Request, error) {
	raw := c.base.String() + "/api/v4/" + r.path
	if len(r.query) > 0 {
		raw += "?" + r.query.Encode()
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("building request URL: %w", err)
	}
	var body io.Reader
	if r.body != nil {
		b, err := json.Marshal(r.body)
		if err != nil {
			return nil, err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, u.String(), body)
	if err != nil {
		return nil, err
	}
	// NewRequest re-parses the string; keep the encoded path exactly.
	req.URL = u
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if r.body != nil || r.method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("PRIVATE-TOKEN", c.token)
	}
	return req, nil
}

// do sends r, retrying when that is safe, and decodes a 2xx JSON body into v.
func (c *Client) do(ctx context.Context, r request, v any) (*Response, error) {
	displayPath := "/api/v4/" + r.path
	var waited time.Duration
	for attempt := 0; ; attempt++ {
		req, err := c.newHTTPRequest(ctx, r)
		if err != nil {
			return nil, err
		}
		resp, body, err := c.send(req)
		if err != nil {
			apiErr := c.transportError(r.method, displayPath, err)
			if wait, ok := c.retryWait(ctx, r.method, attempt, waited, nil, err); ok {
				waited += wait
				c.notifyRetry(r.method, displayPath, attempt, wait, 0)
				if c.sleep(ctx, wait) == nil {
					continue
				}
			}
			return nil, apiErr
		}
		if resp.StatusCode >= 200 && resp.StatusCode < 300 {
			return newResponse(resp), decodeBody(r.method, displayPath, resp, body, v)
		}
		apiErr := errorFromResponse(r.method, displayPath, resp, body)
		if wait, ok := c.retryWait(ctx, r.method, attempt, waited, resp, nil); ok {
			waited += wait
			c.notifyRetry(r.method, displayPath, attempt, wait, resp.StatusCode)
			if c.sleep(ctx, wait) == nil {
				continue
			}
		}
		return newResponse(resp), apiErr
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

func (c *Client) notifyRetry(method, path string, attempt int, wait time.Duration, status int) {
	if c.onRetry != nil {
		c.onRetry(RetryEvent{Method: method, Path: path, Attempt: attempt + 1, Wait: wait, StatusCode: status})
	}
}

// send performs one exchange and reads a size-capped body.
func (c *Client) send(req *http.Request) (*http.Response, []byte, error) {
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.maxBody+1))
	if err != nil {
		return nil, nil, err
	}
	if int64(len(body)) > c.maxBody {
		return nil, nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, c.maxBody)
	}
	return resp, body, nil
}

func (c *Client) transportError(method, path string, err error) error {
	e := &APIError{Method: method, Path: path, Kind: ErrServer}
	var rerr *redirectError
	switch {
	case errors.As(err, &rerr):
		e.Kind = ErrCrossRedirect
		e.Message = "the server redirected to " + rerr.to + "; errtrack does not follow redirects to another host with your token (check the host URL)"
	case errors.Is(err, ErrTooLarge):
		e.Kind = ErrTooLarge
		e.Message = err.Error()
	case errors.Is(err, context.Canceled):
		e.Message = "request cancelled"
		return errors.Join(e, context.Canceled)
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		e.Message = fmt.Sprintf("no complete answer within %s (timed out)", c.timeout)
	default:
		e.Message = "could not reach the server: " + scrubURLError(err)
	}
	return e
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// scrubURLError drops the request URL from a *url.Error: only the cause is useful.
func scrubURLError(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return err.Error()
}

// retryWait decides whether to retry and how long to wait first. Only
// idempotent methods are retried: a retried POST could mint a second key.
func (c *Client) retryWait(ctx context.Context, method string, attempt int, waited time.Duration, resp *http.Response, err error) (time.Duration, bool) {
	if method == http.MethodPost || attempt >= c.maxRetries || ctx.Err() != nil {
		return 0, false
	}
	if err != nil {
		var rerr *redirectError
		if errors.As(err, &rerr) || errors.Is(err, ErrTooLarge) || errors.Is(err, context.Canceled) {
			return 0, false
		}
	} else {
		switch resp.StatusCode {
		case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		default:
			return 0, false
		}
	}
	wait := backoff(attempt)
	if resp != nil {
		if d, ok := serverWait(resp.Header, time.Now()); ok {
			wait = d
		}
	}
	if waited+wait > c.maxWait {
		return 0, false
	}
	return wait, true
}

func backoff(attempt int) time.Duration {
	d := 200 * time.Millisecond << attempt
	return d + time.Duration(time.Now().UnixNano()%int64(d/4+1))
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
