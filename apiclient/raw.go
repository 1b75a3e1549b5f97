package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// RawRequest is one call the typed methods do not cover.
type RawRequest struct {
	Method string
	// Path is below /api/v4 ("projects/42/variables", "/api/v4/user"),
	// optionally with a query.
	Path  string
	Query url.Values
	// Body, unless nil, is sent as JSON; a json.RawMessage goes as it is.
	Body any
	// Header holds extra request headers. Those that carry credentials or
	// steer the request elsewhere are refused (see CheckHeader).
	Header http.Header
}

// Raw sends method to path (below /api/v4, e.g. "projects/42/variables")
// with query and, unless nil, a JSON body, and returns the answer's body,
// also when the status is an error. It is for calls the typed methods do not
// cover; every rule of the client holds (no token across hosts or over plain
// HTTP, no write re-sent on a redirect, capped bodies, the token removed from
// what comes back). Only GET, HEAD, PUT and DELETE are retried.
func (c *Client) Raw(ctx context.Context, method, path string, query url.Values, body any) (*Response, []byte, error) {
	return c.RawCall(ctx, RawRequest{Method: method, Path: path, Query: query, Body: body})
}

// RawCall is Raw with extra request headers. The returned Response's
// headers are a copy with the token removed from every value.
func (c *Client) RawCall(ctx context.Context, rr RawRequest) (*Response, []byte, error) {
	r, err := c.rawRequest(rr)
	if err != nil {
		return nil, nil, err
	}
	var out []byte
	r.raw = &out
	resp, err := c.do(ctx, r, nil)
	c.scrubResponse(resp)
	return resp, out, err
}

// RawPaginate sends a GET and follows the list's pages, by the Link
// header's rel="next" (to the client's own host and API only) or else
// X-Next-Page, joining the JSON arrays into one. per_page is 100 unless the
// query sets it. It stops at an empty page or one with no next, and reads at
// most maxPages pages and the client's list budget in bytes. A single
// answer that is not an array, with no next page, is returned as it is.
// On a failed page it returns that page's Response and body with the error.
// The Response of success is the first page's, headers scrubbed.
func (c *Client) RawPaginate(ctx context.Context, rr RawRequest) (*Response, []byte, error) {
	if !strings.EqualFold(rr.Method, http.MethodGet) && rr.Method != "" {
		return nil, nil, &APIError{Kind: ErrValidation, Message: fmt.Sprintf("only a GET can be paginated, not %q", strings.ToUpper(rr.Method))}
	}
	rr.Method = http.MethodGet
	r, err := c.rawRequest(rr)
	if err != nil {
		return nil, nil, err
	}
	if r.query == nil {
		r.query = url.Values{}
	}
	if r.query.Get("per_page") == "" {
		r.query.Set("per_page", strconv.Itoa(perPage))
	}
	budget := listBudget{max: c.maxList}
	var first *Response
	var items []json.RawMessage
	seen := map[string]bool{}
	for n := 1; ; n++ {
		if n > maxPages {
			return first, nil, &APIError{Method: http.MethodGet, Path: r.displayPath(), Kind: ErrBadResponse,
				Message: fmt.Sprintf("the server kept offering more pages; stopped after %d", maxPages)}
		}
		seen[r.path+"?"+r.query.Encode()] = true
		var out []byte
		page := r
		page.raw = &out
		resp, err := c.do(ctx, page, nil)
		c.scrubResponse(resp)
		if err == nil {
			err = budget.add(r.path, resp)
		}
		if err != nil && n > 1 {
			return resp, out, &PagesError{Read: n - 1, Items: len(items), Err: err}
		}
		if err != nil {
			return resp, out, err
		}
		if first == nil {
			first = resp
		}
		next, err := c.nextPage(r, resp)
		if err != nil {
			return resp, nil, err
		}
		var got []json.RawMessage
		if json.Unmarshal(out, &got) != nil {
			if n == 1 && next == nil {
				return resp, out, nil
			}
			return resp, nil, &APIError{StatusCode: resp.StatusCode, Method: http.MethodGet, Path: r.displayPath(), Kind: ErrBadResponse,
				Message: fmt.Sprintf("page %d of the list is not a JSON array", n)}
		}
		items = append(items, got...)
		if len(got) == 0 || next == nil {
			break
		}
		if seen[next.path+"?"+next.query.Encode()] {
			return resp, nil, &APIError{StatusCode: resp.StatusCode, Method: http.MethodGet, Path: r.displayPath(), Kind: ErrBadResponse,
				Message: fmt.Sprintf("page %d of the list names a page already read as the next one", n)}
		}
		r = *next
	}
	return first, joinArray(items), nil
}

// PagesError is a list that failed after some of its pages were read:
// Read pages, holding Items elements, came before the page that failed
// with Err.
type PagesError struct {
	Read, Items int
	Err         error
}

func (e *PagesError) Error() string {
	return fmt.Sprintf("page %d of the list failed, after %d pages were read: %v", e.Read+1, e.Read, e.Err)
}

func (e *PagesError) Unwrap() error { return e.Err }

// nextPage is the request for the page after resp, nil at the end. A
// rel="next" link must stay on the client's scheme, host and API; a
// server cannot send the token elsewhere by naming another host.
func (c *Client) nextPage(r request, resp *Response) (*request, error) {
	if link := linkRel(resp.Header.Get("Link"), "next"); link != "" {
		u, err := url.Parse(link)
		api := strings.TrimSuffix(c.base.EscapedPath(), "/") + "/api/v4/"
		if err != nil || u.Scheme != c.base.Scheme || u.Host != c.base.Host || !strings.HasPrefix(u.EscapedPath(), api) || u.User != nil {
			return nil, &APIError{StatusCode: resp.StatusCode, Method: r.method, Path: r.displayPath(), Kind: ErrBadResponse,
				Message: "the next page's link leads outside " + c.base.String() + "/api/v4; not followed"}
		}
		p, err := rawPath(strings.TrimPrefix(u.EscapedPath(), api))
		if err != nil {
			return nil, err
		}
		next := r
		next.path, next.query = p, u.Query()
		return &next, nil
	}
	cur := 1
	if n, err := strconv.Atoi(r.query.Get("page")); err == nil && n > 0 {
		cur = n
	}
	if resp.NextPage <= cur {
		return nil, nil
	}
	next := r
	next.query = url.Values{}
	for k, v := range r.query {
		next.query[k] = v
	}
	next.query.Set("page", strconv.Itoa(resp.NextPage))
	return &next, nil
}

// linkRel finds the URL of relation rel in an RFC 8288 Link header.
func linkRel(h, rel string) string {
	for {
		i := strings.IndexByte(h, '<')
		if i < 0 {
			return ""
		}
		j := strings.IndexByte(h[i:], '>')
		if j < 0 {
			return ""
		}
		target, rest := h[i+1:i+j], h[i+j+1:]
		params := rest
		if k := strings.IndexByte(rest, '<'); k >= 0 {
			params, h = rest[:k], rest[k:]
		} else {
			h = ""
		}
		for _, p := range strings.Split(params, ";") {
			name, val, ok := strings.Cut(p, "=")
			if !ok || !strings.EqualFold(strings.TrimSpace(name), "rel") {
				continue
			}
			for _, r := range strings.Fields(strings.Trim(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(val), ",")), `"`)) {
				if strings.EqualFold(r, rel) {
					return target
				}
			}
		}
	}
}

// joinArray writes items as one compact JSON array.
func joinArray(items []json.RawMessage) []byte {
	n := 2
	for _, it := range items {
		n += len(it) + 1
	}
	var b bytes.Buffer
	b.Grow(n)
	b.WriteByte('[')
	for i, it := range items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// scrubResponse replaces the answer's headers with a copy without the
// token: a server may echo it in any header, and a raw call shows them.
func (c *Client) scrubResponse(resp *Response) {
	if resp != nil && resp.Response != nil {
		resp.Header = c.scrubHeader(resp.Header)
	}
}

// CheckRawRequest refuses, before anything is sent, a raw call RawCall or
// RawPaginate would refuse: a method, header or path it does not send.
func CheckRawRequest(rr RawRequest) error {
	_, err := (&Client{}).rawRequest(rr)
	return err
}

// rawRequest checks a raw call and builds its request.
func (c *Client) rawRequest(rr RawRequest) (request, error) {
	method := strings.ToUpper(rr.Method)
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
	default:
		return request{}, &APIError{Kind: ErrValidation, Message: fmt.Sprintf("method %q is not one of GET, POST, PUT, PATCH, DELETE, HEAD", method)}
	}
	for k, vs := range rr.Header {
		for _, v := range vs {
			if err := CheckHeader(k, v); err != nil {
				return request{}, err
			}
		}
	}
	p, err := rawPath(rr.Path)
	if err != nil {
		return request{}, err
	}
	query := rr.Query
	if i := strings.IndexByte(p, '?'); i >= 0 {
		q, err := url.ParseQuery(p[i+1:])
		if err != nil {
			return request{}, &APIError{Kind: ErrValidation, Message: "the path's query cannot be read"}
		}
		for k, v := range query {
			q[k] = append(q[k], v...)
		}
		p, query = p[:i], q
	}
	// An arbitrary PATCH need not be idempotent: only the typed calls retry it.
	return request{method: method, path: p, query: query, body: rr.Body, header: rr.Header, noRetry: method == http.MethodPatch}, nil
}

// refusedHeaders carry credentials, or decide where and how the request
// goes: a raw call cannot set them.
var refusedHeaders = map[string]bool{
	"Private-Token": true, "Job-Token": true, "Authorization": true, "Proxy-Authorization": true,
	"Cookie": true, "Host": true, "Content-Length": true, "Transfer-Encoding": true, "Connection": true,
}

// CheckHeader refuses a request header a raw call must not send: one that
// carries credentials (PRIVATE-TOKEN, JOB-TOKEN, Authorization, Cookie) or
// steers the request (Host, Content-Length, Transfer-Encoding, Connection),
// in any case and with underscores for dashes,
// a name that is not an HTTP token, and a value with a control character
// (CR or LF would start another header).
func CheckHeader(name, value string) error {
	if name == "" || strings.IndexFunc(name, func(r rune) bool { return !isTokenChar(r) }) >= 0 {
		return &APIError{Kind: ErrValidation, Message: fmt.Sprintf("%q is not a header name", name)}
	}
	// Rack (and so GitLab) reads a dash and an underscore alike in a
	// header's name: Private_Token arrives as PRIVATE-TOKEN.
	if canon := http.CanonicalHeaderKey(strings.ReplaceAll(name, "_", "-")); refusedHeaders[canon] {
		if strings.HasSuffix(canon, "-Token") {
			canon = strings.ToUpper(canon) // as GitLab spells them
		}
		what := "the " + canon + " header"
		if strings.Contains(name, "_") {
			what = fmt.Sprintf("%s reads as %s on the server, a header that", name, canon)
		}
		return &APIError{Kind: ErrValidation, Message: fmt.Sprintf("%s is errtrack's to set: it carries credentials or decides where the request goes", what)}
	}
	for _, r := range value {
		if (r < 0x20 && r != '\t') || r == 0x7f {
			return &APIError{Kind: ErrValidation, Message: fmt.Sprintf("the %s header's value holds a control character (CR, LF or another)", http.CanonicalHeaderKey(name))}
		}
	}
	return nil
}

// isTokenChar: RFC 9110's tchar.
func isTokenChar(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	}
	return r < 0x80 && strings.ContainsRune("!#$%&'*+-.^_`|~", r)
}

// rawPath accepts "projects/42", "/projects/42" or "/api/v4/projects/42",
// and refuses a URL: the host is the client's.
func rawPath(path string) (string, error) {
	path = strings.TrimSpace(path)
	if strings.Contains(path, "://") {
		return "", &APIError{Kind: ErrValidation, Message: "give a path below /api/v4, not a URL: the host is the one errtrack uses"}
	}
	if strings.HasPrefix(path, "//") {
		// A network-path reference: to a URL parser, //host/x names a host.
		return "", &APIError{Kind: ErrValidation, Message: "a path starting with // names a host, not a path below /api/v4: the host is the one errtrack uses"}
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
