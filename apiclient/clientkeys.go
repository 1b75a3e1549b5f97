package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"sync"
)

func keysPath(p ProjectRef) string {
	return "projects/" + p.escaped() + "/error_tracking/client_keys"
}

// ListClientKeys returns every client key of the project, in server order.
// When the first page tells the page count, the rest are fetched concurrently.
func (c *Client) ListClientKeys(ctx context.Context, p ProjectRef) ([]ClientKey, *Response, error) {
	first, resp, err := c.keysPage(ctx, p, 1)
	if err != nil {
		return nil, resp, err
	}
	switch {
	case resp.HasTotal && resp.TotalPages > 1:
		if resp.TotalPages > maxPages {
			return nil, resp, &APIError{StatusCode: resp.StatusCode, Method: http.MethodGet, Path: "/api/v4/" + keysPath(p), Kind: ErrBadResponse,
				Message: fmt.Sprintf("the server reports %d pages of keys, more than the %d errtrack reads", resp.TotalPages, maxPages)}
		}
		pages, err := c.fetchPages(ctx, p, 2, resp.TotalPages)
		if err != nil {
			return nil, resp, err
		}
		all := make([]ClientKey, 0, len(first)+len(pages)*perPage)
		all = append(all, first...)
		for _, pg := range pages {
			all = append(all, pg...)
		}
		return all, resp, nil
	case resp.NextPage > 1 && !resp.HasTotal:
		all := first
		next := resp.NextPage
		for n := 1; next > 0; n++ {
			if n >= maxPages {
				return nil, resp, &APIError{Method: http.MethodGet, Path: "/api/v4/" + keysPath(p), Kind: ErrBadResponse, Message: "the server keeps offering more pages; stopped"}
			}
			keys, r, err := c.keysPage(ctx, p, next)
			if err != nil {
				return nil, r, err
			}
			all = append(all, keys...)
			if r.NextPage <= next {
				break
			}
			next = r.NextPage
		}
		return all, resp, nil
	}
	return first, resp, nil
}

func (c *Client) keysPage(ctx context.Context, p ProjectRef, page int) ([]ClientKey, *Response, error) {
	q := url.Values{"page": {strconv.Itoa(page)}, "per_page": {strconv.Itoa(perPage)}}
	var keys []ClientKey
	resp, err := c.do(ctx, request{method: http.MethodGet, path: keysPath(p), query: q}, &keys)
	return keys, resp, err
}

// fetchPages fetches pages from..to with at most c.concurrency in flight and
// returns them in page order. The first error cancels the rest.
func (c *Client) fetchPages(ctx context.Context, p ProjectRef, from, to int) ([][]ClientKey, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make([][]ClientKey, to-from+1)
	var (
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	sem := make(chan struct{}, c.concurrency)
	for page := from; page <= to; page++ {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func(page int) {
			defer wg.Done()
			defer func() { <-sem }()
			keys, _, err := c.keysPage(ctx, p, page)
			if err != nil {
				once.Do(func() { firstErr = err; cancel() })
				return
			}
			out[page-from] = keys
		}(page)
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// CreateClientKey creates a key. It is never retried: if the answer is lost,
// the key may exist anyway, so the caller should list keys before trying again.
func (c *Client) CreateClientKey(ctx context.Context, p ProjectRef) (*ClientKey, *Response, error) {
	return doOne[ClientKey](ctx, c, request{method: http.MethodPost, path: keysPath(p)})
}

// DeleteClientKey deletes key id and returns the deleted key.
func (c *Client) DeleteClientKey(ctx context.Context, p ProjectRef, id int64) (*ClientKey, *Response, error) {
	if id <= 0 {
		return nil, nil, errors.New("client key ID must be positive")
	}
	return doOne[ClientKey](ctx, c, request{method: http.MethodDelete, path: keysPath(p) + "/" + strconv.FormatInt(id, 10)})
}
