package sentry

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/errtrack/errtrack/apiclient"
)

// PerPage is how many items a page holds here: the most Sentry's
// paginator gives (MAX_LIMIT); the keys endpoint's default is 10.
const PerPage = 100

// linkEntry is one link of a Link header, with Sentry's attributes.
var linkEntry = regexp.MustCompile(`<[^>]*>((?:\s*;\s*[A-Za-z]+="[^"]*")*)`)
var linkAttr = regexp.MustCompile(`([A-Za-z]+)="([^"]*)"`)

// NextCursor reads Sentry's Link header (src/sentry/api/base.py,
// CURSOR_LINK_HEADER): the cursor of rel="next" when its results is
// "true", else "". The cursor is opaque; the link's URL is not followed, so
// the next page is asked of the client's own host whatever the link names.
func NextCursor(link string) string {
	if len(link) > 16<<10 {
		return ""
	}
	for _, m := range linkEntry.FindAllStringSubmatch(link, 20) {
		attrs := map[string]string{}
		for _, a := range linkAttr.FindAllStringSubmatch(m[1], 10) {
			attrs[strings.ToLower(a[1])] = a[2]
		}
		if attrs["rel"] == "next" && attrs["results"] == "true" && validCursor(attrs["cursor"]) {
			return attrs["cursor"]
		}
	}
	return ""
}

// validCursor: Sentry's cursors are "value:offset:is_prev"; any short
// printable token without spaces is taken as it is.
func validCursor(s string) bool {
	if s == "" || len(s) > 256 {
		return false
	}
	for _, r := range s {
		if r <= ' ' || r >= 0x7f {
			return false
		}
	}
	return true
}

// pages reads a listing page by page, handing each page's items to each, in
// order, within bounds a hostile server cannot stretch: at most maxPages
// pages and c.maxList bytes, and a cursor given twice is refused.
func (c *Client) pages(ctx context.Context, path string, q url.Values, nf notFound, each func([]keyJSON) error) error {
	return pagesOf(ctx, c, path, q, nf, each)
}

func pagesOf[T any](ctx context.Context, c *Client, path string, q url.Values, nf notFound, each func([]T) error) error {
	query := url.Values{}
	for k, v := range q {
		query[k] = v
	}
	query.Set("per_page", fmt.Sprint(PerPage))
	seen := map[string]bool{}
	var used int64
	for n := 0; ; n++ {
		if n >= maxPages {
			return &Error{Method: http.MethodGet, Path: dialect.Prefix + path, Kind: ErrBadResponse, Message: fmt.Sprintf("the server kept offering more pages; stopped after %d", maxPages)}
		}
		resp, body, err := c.api.Send(ctx, apiclient.Call{Path: path, Query: query, Shown: hideSecrets})
		if err != nil {
			return c.marked(answerError(http.MethodGet, dialect.Prefix+path, resp, body, err, nf))
		}
		if used += int64(len(body)); used > c.maxList {
			return &Error{StatusCode: resp.StatusCode, Method: http.MethodGet, Path: dialect.Prefix + path, Kind: ErrTooLarge,
				Message: fmt.Sprintf("the list is larger than the %d MiB errtrack reads", c.maxList>>20)}
		}
		var items []T
		if err := decode(body, &items); err != nil {
			return &Error{StatusCode: resp.StatusCode, Method: http.MethodGet, Path: dialect.Prefix + path, Kind: ErrBadResponse, Message: err.Error()}
		}
		if err := each(items); err != nil {
			return &Error{StatusCode: resp.StatusCode, Method: http.MethodGet, Path: dialect.Prefix + path, Kind: ErrBadResponse, Message: err.Error()}
		}
		next := NextCursor(resp.Header.Get("Link"))
		if next == "" || len(items) == 0 {
			return nil
		}
		if seen[next] {
			return &Error{StatusCode: resp.StatusCode, Method: http.MethodGet, Path: dialect.Prefix + path, Kind: ErrBadResponse,
				Message: "the server named a page already read as the next one"}
		}
		seen[next] = true
		query.Set("cursor", next)
	}
}
