package apiclient

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Raw sends method to path (below /api/v4, e.g. "projects/42/variables")
// with query and, unless nil, a JSON body, and returns the answer's body,
// also when the status is an error. It is for calls the typed methods do not
// cover; every rule of the client holds (no token across hosts or over plain
// HTTP, no write re-sent on a redirect, capped bodies, the token removed from
// what comes back). Only GET, HEAD, PUT and DELETE are retried.
func (c *Client) Raw(ctx context.Context, method, path string, query url.Values, body any) (*Response, []byte, error) {
	method = strings.ToUpper(method)
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
	default:
		return nil, nil, &APIError{Kind: ErrValidation, Message: fmt.Sprintf("method %q is not one of GET, POST, PUT, PATCH, DELETE, HEAD", method)}
	}
	p, err := rawPath(path)
	if err != nil {
		return nil, nil, err
	}
	if i := strings.IndexByte(p, '?'); i >= 0 {
		q, err := url.ParseQuery(p[i+1:])
		if err != nil {
			return nil, nil, &APIError{Kind: ErrValidation, Message: "the path's query cannot be read"}
		}
		for k, v := range query {
			q[k] = append(q[k], v...)
		}
		p, query = p[:i], q
	}
	var out []byte
	// An arbitrary PATCH need not be idempotent: only the typed calls retry it.
	r := request{method: method, path: p, query: query, body: body, raw: &out, noRetry: method == http.MethodPatch}
	resp, err := c.do(ctx, r, nil)
	return resp, out, err
}

// rawPath accepts "projects/42", "/projects/42" or "/api/v4/projects/42",
// and refuses a URL: the host is the client's.
func rawPath(path string) (string, error) {
	path = strings.TrimSpace(path)
	if strings.Contains(path, "://") || strings.HasPrefix(path, "//") {
		return "", &APIError{Kind: ErrValidation, Message: "give a path below /api/v4, not a URL: the host is the one errtrack uses"}
	}
	path = strings.TrimPrefix(strings.TrimPrefix(path, "/"), "api/v4/")
	if path == "" || strings.ContainsAny(path, " \t\r\n") {
		return "", &APIError{Kind: ErrValidation, Message: "give a path below /api/v4, such as projects/42/error_tracking/settings"}
	}
	for _, seg := range strings.Split(strings.SplitN(path, "?", 2)[0], "/") {
		if seg == ".." || seg == "." {
			return "", &APIError{Kind: ErrValidation, Message: "the path must not hold . or .. segments"}
		}
	}
	return path, nil
}
