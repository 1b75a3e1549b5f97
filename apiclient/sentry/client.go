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
	"errors"
	"net/url"
	"strings"

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
	// orgToken: the token is an organization's (sntrys_…, Sentry's
	// SENTRY_ORG_AUTH_TOKEN_PREFIX); its refusals say so.
	orgToken bool
}

// New returns a client for the Sentry at baseURL ("https://sentry.io") with
// token. opts are apiclient's (WithCAFile, WithObserver, WithInsecureHTTP…;
// a test's retries and clock from apiclienttest).
func New(baseURL, token string, opts ...apiclient.Option) (*Client, error) {
	base, err := NormalizeBase(baseURL)
	if err != nil {
		return nil, err
	}
	api, err := apiclient.New(base, token, append(append([]apiclient.Option(nil), opts...), apiclient.WithDialect(dialect))...)
	if err != nil {
		return nil, err
	}
	return &Client{api: api, base: base, maxList: DefaultMaxList, orgToken: strings.HasPrefix(token, "sntrys_")}, nil
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
		if moved := c.movedProject(ctx, method, call.Path, err); moved != nil {
			return resp, moved
		}
		return resp, c.marked(answerError(method, path, resp, body, err, nf))
	}
	if v != nil {
		if err := decode(body, v); err != nil {
			return resp, &Error{Base: c.base, StatusCode: resp.StatusCode, Method: method, Path: path, Kind: ErrBadResponse, Message: err.Error()}
		}
	}
	return resp, nil
}

// movedProject tells a write Sentry redirected because the project was
// renamed (ProjectMoved: 302 to the new slug, src/sentry/api/bases/project.py)
// from any other redirect: the project is read at its old slug, a read
// follows the redirect, and a project answering with another slug was
// renamed. nil when it was not (or cannot be told): the write's own error
// stands. The write is never sent again.
func (c *Client) movedProject(ctx context.Context, method, path string, err error) error {
	var ae *apiclient.APIError
	if !errors.As(err, &ae) || ae.Kind != apiclient.ErrRedirectedWrite {
		return nil
	}
	rest, ok := strings.CutPrefix(path, "projects/")
	if !ok {
		return nil
	}
	parts := strings.SplitN(rest, "/", 3)
	if len(parts) < 3 {
		return nil
	}
	org, oerr := url.PathUnescape(parts[0])
	slug, serr := url.PathUnescape(parts[1])
	if oerr != nil || serr != nil {
		return nil
	}
	p, gerr := c.GetProject(ctx, Project{Org: org, Slug: slug})
	if gerr != nil || !validSlug(p.Slug) || p.Slug == slug {
		return nil
	}
	return &Error{Base: c.base, StatusCode: ae.StatusCode, Method: method, Path: dialect.Prefix + path, Kind: ErrProjectMoved,
		Message: "the Sentry project " + org + "/" + slug + " was renamed to " + org + "/" + p.Slug + "; the change was not sent to its new address",
		Moved:   &ProjectMoved{Org: org, Slug: slug, NewSlug: p.Slug}}
}

// marked notes on Sentry's answer the host it came from and whether an
// organization token was refused.
func (c *Client) marked(err error) error {
	if se, ok := err.(*Error); ok {
		se.OrgToken = c.orgToken
		se.Base = c.base
	}
	return err
}
