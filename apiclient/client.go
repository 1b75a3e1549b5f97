// Package apiclient is an HTTP client for GitLab's error tracking endpoints
// and the few others the console needs (user, token, projects).
//
// Every method takes a context first and returns a typed *APIError on
// failure. The client never prints or logs, never puts the token in an error,
// and removes the token from any text a server sends back.
package apiclient

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/errtrack/errtrack/internal/capread"
	"github.com/errtrack/errtrack/internal/hosturl"
)

// Defaults, overridable with options.
const (
	DefaultTimeout    = 30 * time.Second
	DefaultMaxBody    = 16 << 20
	DefaultMaxList    = 64 << 20
	DefaultMaxRetries = 3
	// DefaultMaxWait bounds the waiting of one request's retries; a
	// rate limit's reset is often tens of seconds. The caller's deadline
	// (--timeout) bounds it too.
	DefaultMaxWait     = 5 * time.Minute
	DefaultConcurrency = 4
	perPage            = 100
	maxPages           = 2000
	maxCAFile          = 1 << 20
)

// Version is sent in the User-Agent; cmd/errtrack sets it at start.
var Version = "dev"

// Client talks to one GitLab instance with one token.
type Client struct {
	// MaxRetries and MaxWait bound retries of idempotent requests: at
	// most MaxRetries retries and MaxWait of waiting in all (New sets
	// DefaultMaxRetries and DefaultMaxWait; 0 and 0 turn retries off).
	// Now and Sleep are the clock and the sleep of the retries and of the
	// host's pace (time.Now and a sleep that ends with its context). Only
	// tests change them (apiclient/apiclienttest), before the first
	// request: errtrack keeps New's.
	MaxRetries int
	MaxWait    time.Duration
	Now        func() time.Time
	Sleep      func(ctx context.Context, d time.Duration) error

	base        *url.URL // normalized host, no trailing slash
	token       string
	http        *http.Client
	userAgent   string
	maxBody     int64
	maxList     int64
	concurrency int
	allowHTTP   bool
	caFile      string
	timeout     time.Duration
	jitter      func(n int64) int64 // a random number in [0, n)
	pace        *pacer
	onRetry     func(RetryEvent)
	observer    func(Exchange)

	versionMu sync.Mutex
	version   *ServerVersion // cached once read
	// injected is a test's transport (its WithHTTPClient), nil for errtrack's own.
	injected http.RoundTripper
	// dialect is the API spoken when it is not GitLab's (WithDialect).
	dialect *Dialect
}

// RetryEvent describes a retry about to happen, for a front end to show
// ("rate limited, retrying in 3 s").
type RetryEvent struct {
	Method, Path string
	Attempt      int           // 1 for the first retry
	Wait         time.Duration // before the retry
	StatusCode   int           // 0 for a connection error
}

// Option configures a Client.
type Option func(*Client)

// WithRetryNotify calls f before each retry. f must not block.
func WithRetryNotify(f func(RetryEvent)) Option { return func(c *Client) { c.onRetry = f } }

// WithTimeout bounds each HTTP exchange, body included, at d instead of
// DefaultTimeout; 0 leaves an exchange bounded only by its context. A
// caller whose own deadline is longer than the default raises this one
// with it, or the default would cut a slow answer its caller still waits for.
func WithTimeout(d time.Duration) Option { return func(c *Client) { c.timeout = d } }

// WithCAFile trusts the PEM certificates in file, for self-managed GitLab
// behind a private CA, on top of the system roots.
func WithCAFile(file string) Option { return func(c *Client) { c.caFile = file } }

// WithInsecureHTTP allows plain http:// to a non-loopback host. The token
// then crosses the network in clear text; only for trusted test networks.
func WithInsecureHTTP() Option { return func(c *Client) { c.allowHTTP = true } }

// New returns a client for the GitLab at baseURL ("https://gitlab.example.com").
func New(baseURL, token string, opts ...Option) (*Client, error) {
	norm, err := hosturl.Normalize(baseURL)
	if err != nil {
		return nil, err
	}
	if !validToken(token) {
		return nil, &APIError{Kind: ErrBadToken, Message: "the token holds a space, a line break or a control character, which cannot be sent in an HTTP header"}
	}
	base, _ := url.Parse(norm)
	c := &Client{
		base:        base,
		token:       token,
		userAgent:   "errtrack/" + Version,
		maxBody:     DefaultMaxBody,
		maxList:     DefaultMaxList,
		MaxRetries:  DefaultMaxRetries,
		MaxWait:     DefaultMaxWait,
		concurrency: DefaultConcurrency,
		timeout:     DefaultTimeout,
		Sleep:       sleepCtx,
		jitter:      rand.Int64N,
		Now:         time.Now,
	}
	for _, o := range opts {
		o(c)
	}
	if base.Scheme == "http" && !c.allowHTTP && !hosturl.IsLoopback(norm) {
		return nil, &APIError{Kind: ErrInsecureURL, Message: "refusing to send the token over plain HTTP to " + base.Host}
	}
	c.pace = pacerFor(norm)
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 16
	// GitLab's headers are a few KiB; megabytes of them are an attack on
	// memory (a request log keeps them), refused as the body limit is.
	t.MaxResponseHeaderBytes = maxResponseHeaderBytes
	if c.caFile != "" {
		pool, err := loadCA(c.caFile)
		if err != nil {
			return nil, err
		}
		t.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
	}
	var under http.RoundTripper = t
	if c.injected != nil {
		under = c.injected
	}
	tt := &tokenTransport{base: under, header: c.tokenHeader(), scheme: c.base.Scheme, host: c.base.Host}
	if c.token != "" {
		tt.value = c.tokenValue(c.token)
	}
	// No http.Client Timeout: it starts a goroutine and a timer for every
	// request, a quarter of a small list's time. Each attempt's context
	// carries the bound instead (Client.do).
	c.http = &http.Client{Transport: tt, CheckRedirect: c.checkRedirect}
	return c, nil
}

// BaseURL is the normalized host URL the client talks to.
func (c *Client) BaseURL() string { return c.base.String() }

// validToken rejects what net/http would refuse as a header value, so a
// stored token with a stray newline fails here with a clear error instead of
// as an "invalid header field" network failure.
func validToken(t string) bool {
	for i := 0; i < len(t); i++ {
		if b := t[i]; b <= ' ' || b == 0x7f {
			return false
		}
	}
	return true
}

func loadCA(file string) (*x509.CertPool, error) {
	pem, err := capread.ReadFile(file, maxCAFile)
	if err != nil {
		return nil, fmt.Errorf("reading the CA file: %w", err)
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

// redact removes the token from text a server sent: a server that echoes
// the token back (in an error page, say) must not get it printed.
func (c *Client) redact(s string) string {
	if len(c.token) < 8 {
		return s // too short to replace without mangling ordinary text
	}
	return strings.ReplaceAll(s, c.token, "[redacted]")
}
