package apiclient

import (
	"context"
	"net/http"
	"net/url"
)

// Dialect is an HTTP API other than GitLab's that a Client speaks with the
// same transport: one pace per host, retries of what may be sent twice,
// bounded bodies and headers, redirects that never carry the token
// elsewhere, and observers (the request log) that never see it. Sentry's
// API (apiclient/sentry) is one. A dialect's client uses Send; the GitLab
// methods are not for it.
type Dialect struct {
	// Prefix is the API's path below the base URL, slashes around: "/api/0/".
	Prefix string
	// TokenHeader carries the token, with TokenScheme before it when set:
	// "Authorization" and "Bearer" send "Authorization: Bearer TOKEN".
	TokenHeader, TokenScheme string
	// TokenVariable is the shell variable a repeated request (Exchange.Curl)
	// reads the token from: SENTRY_AUTH_TOKEN.
	TokenVariable string
}

// WithDialect makes the client speak d instead of GitLab's API.
func WithDialect(d Dialect) Option { return func(c *Client) { c.dialect = &d } }

func (c *Client) tokenHeader() string {
	if c.dialect != nil {
		return c.dialect.TokenHeader
	}
	return "PRIVATE-TOKEN"
}

// tokenValue is the header's value for token (or for "[redacted]").
func (c *Client) tokenValue(token string) string {
	if c.dialect != nil && c.dialect.TokenScheme != "" {
		return c.dialect.TokenScheme + " " + token
	}
	return token
}

func (c *Client) tokenVariable() string {
	if c.dialect != nil {
		return c.dialect.TokenVariable
	}
	return "GITLAB_TOKEN"
}

// Call is one request of a dialect's API.
type Call struct {
	Method string
	// Path is below the dialect's prefix, already escaped:
	// "projects/org/app/keys/".
	Path  string
	Query url.Values
	// Body, unless nil, is sent as JSON.
	Body any
	// NoRetry: never send twice (beyond what Client.do already refuses).
	NoRetry bool
	// Shown rewrites an answer's body for observers: a call whose answer
	// holds secrets removes them there.
	Shown func([]byte) []byte
}

// Send sends call and returns the answer, its body (token removed) and,
// when the status is not 2xx, an *APIError of the class its status tells;
// the dialect's own error bodies are the caller's to read. A request that
// got no answer returns the transport's *APIError and a nil Response.
// GET and HEAD are retried on a 5xx, a 429 and a lost connection; PUT and
// DELETE on a 429, 502, 503, 504 or a lost connection; POST on a 429 only.
func (c *Client) Send(ctx context.Context, call Call) (*Response, []byte, error) {
	prefix := "/api/v4/"
	if c.dialect != nil {
		prefix = c.dialect.Prefix
	}
	method := call.Method
	if method == "" {
		method = http.MethodGet
	}
	var out []byte
	r := request{method: method, path: call.Path, query: call.Query, body: call.Body, raw: &out,
		noRetry: call.NoRetry, prefix: prefix, shown: call.Shown}
	resp, err := c.do(ctx, r, nil)
	return resp, out, err
}
