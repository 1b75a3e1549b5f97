// Package sentry is a client for the part of Sentry's web API errtrack
// manages: a project's client keys (list, get, create, update, delete), the
// project, an organisation's projects, project creation under a team, the
// token's scopes, and test events through a key's public DSN. It speaks
// through apiclient's transport (apiclient.Dialect), so the same rules hold:
// one pace per host, retries only of what may be sent twice, bounded
// bodies, no token on a redirect, to another host or over plain HTTP
// (loopback aside), nothing secret for observers.
//
// Routes and fields follow Sentry's source (docs/sentry-api.md cites each).
// A key's secret and its secret DSN are never decoded: errtrack has no use
// for them. The client never prints or logs; it returns *Error for an
// answer and *apiclient.APIError for a request that got none.
package sentry

import (
	"context"
	"net/url"

	"github.com/errtrack/errtrack/apiclient"
)

// Sentry's web API as apiclient's transport speaks it.
var dialect = apiclient.Dialect{Prefix: "/api/0/", TokenHeader: "Authorization", TokenScheme: "Bearer", TokenVariable: "SENTRY_AUTH_TOKEN"}

// DefaultMaxList bounds the bytes read for one listing across its pages.
const DefaultMaxList = 16 << 20

// maxPages bounds the pages of one listing: 100 keys a page.
const maxPages = 1000

// Client talks to one Sentry with one token. The token goes to no other
// host: build one Client per Sentry base URL (ClientFor does, from a
// project's api_url).
type Client struct {
	api     *apiclient.Client
	base    string
	maxList int64
}

// New returns a client for the Sentry at baseURL ("https://sentry.io") with
// token. opts are apiclient's (WithTimeout, WithCAFile, WithObserver,
// WithRetries, WithClock, WithHTTPClient, WithInsecureHTTP, WithMaxBody…).
func New(baseURL, token string, opts ...apiclient.Option) (*Client, error) {
	base, err := NormalizeBase(baseURL)
	if err != nil {
		return nil, err
	}
	api, err := apiclient.New(base, token, append(append([]apiclient.Option(nil), opts...), apiclient.WithDialect(dialect))...)
	if err != nil {
		return nil, err
	}
	return &Client{api: api, base: base, maxList: DefaultMaxList}, nil
}

// BaseURL is the normalized Sentry URL the client talks to.
func (c *Client) BaseURL() string { return c.base }

// projectPath is "projects/ORG/PROJECT/", escaped.
func projectPath(org, slug string) string {
	return "projects/" + url.PathEscape(org) + "/" + url.PathEscape(slug) + "/"
}

// get sends a GET and decodes a 2xx answer into v.
func (c *Client) get(ctx context.Context, path string, q url.Values, nf notFound, v any) (*apiclient.Response, error) {
	return c.call(ctx, apiclient.Call{Path: path, Query: q}, nf, v)
}

// call sends call and decodes a 2xx answer into v (unless nil).
func (c *Client) call(ctx context.Context, call apiclient.Call, nf notFound, v any) (*apiclient.Response, error) {
	if call.Shown == nil {
		call.Shown = hideSecrets
	}
	resp, body, err := c.api.Send(ctx, call)
	method := call.Method
	if method == "" {
		method = "GET"
	}
	path := dialect.Prefix + call.Path
	if err != nil {
		return resp, answerError(method, path, resp, body, err, nf)
	}
	if v != nil {
		if err := decode(body, v); err != nil {
			return resp, &Error{StatusCode: resp.StatusCode, Method: method, Path: path, Kind: ErrBadResponse, Message: err.Error()}
		}
	}
	return resp, nil
}
