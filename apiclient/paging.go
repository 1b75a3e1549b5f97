package apiclient

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"sync"
	"sync/atomic"
)

// listAll reads every page of a GitLab list endpoint, in server order, within
// bounds a hostile server cannot stretch: at most maxPages pages and
// c.maxList bytes in all, and it stops at a page that adds nothing.
// When the first page tells the page count, the rest are fetched
// c.concurrency at a time; otherwise X-Next-Page is followed.
func listAll[T any](ctx context.Context, c *Client, path string, query url.Values) ([]T, *Response, error) {
	var budget listBudget
	budget.max = c.maxList
	get := func(ctx context.Context, page int) ([]T, *Response, error) {
		q := url.Values{}
		for k, v := range query {
			q[k] = v
		}
		q.Set("page", strconv.Itoa(page))
		q.Set("per_page", strconv.Itoa(perPage))
		var items []T
		resp, err := c.do(ctx, request{method: http.MethodGet, path: path, query: q}, &items)
		if err == nil {
			err = budget.add(path, resp)
		}
		return items, resp, err
	}
	first, resp, err := get(ctx, 1)
	if err != nil {
		return nil, resp, err
	}
	switch {
	case resp.HasTotal && resp.TotalPages > 1:
		if resp.TotalPages > maxPages {
			return nil, resp, &APIError{StatusCode: resp.StatusCode, Method: http.MethodGet, Path: "/api/v4/" + path, Kind: ErrBadResponse,
				Message: fmt.Sprintf("the server reports %d pages, more than the %d errtrack reads", resp.TotalPages, maxPages)}
		}
		pages, err := fetchPages(ctx, c.concurrency, 2, resp.TotalPages, get)
		if err != nil {
			return nil, resp, err
		}
		all := first
		for _, pg := range pages {
			all = append(all, pg...)
		}
		return all, resp, nil
	case resp.NextPage > 1 && !resp.HasTotal:
		all, next := first, resp.NextPage
		for n := 1; next > 0; n++ {
			if n >= maxPages {
				return nil, resp, &APIError{Method: http.MethodGet, Path: "/api/v4/" + path, Kind: ErrBadResponse,
					Message: fmt.Sprintf("the server kept offering more pages; stopped after %d", maxPages)}
			}
			items, r, err := get(ctx, next)
			if err != nil {
				return nil, r, err
			}
			if len(items) == 0 || r.NextPage <= next {
				all = append(all, items...)
				break // an empty page ends the list, whatever X-Next-Page says
			}
			all = append(all, items...)
			next = r.NextPage
		}
		return all, resp, nil
	}
	return first, resp, nil
}

// listBudget caps the bytes of one listing across its pages: a server may
// send a 15 MB page sixty times, and the decoded copies are larger still.
type listBudget struct {
	max  int64
	used atomic.Int64
}

func (b *listBudget) add(path string, resp *Response) error {
	if b.max <= 0 {
		return nil
	}
	if b.used.Add(resp.BodyBytes) > b.max {
		return &APIError{StatusCode: resp.StatusCode, Method: http.MethodGet, Path: "/api/v4/" + path, Kind: ErrTooLarge,
			Message: fmt.Sprintf("the list is larger than the %d MiB errtrack reads", b.max>>20)}
	}
	return nil
}

// fetchPages fetches pages from..to with at most n in flight and returns
// them in page order. The first error cancels the rest.
func fetchPages[T any](ctx context.Context, n, from, to int, get func(context.Context, int) ([]T, *Response, error)) ([][]T, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make([][]T, to-from+1)
	var (
		wg       sync.WaitGroup
		once     sync.Once
		firstErr error
	)
	sem := make(chan struct{}, max(n, 1))
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
			items, _, err := get(ctx, page)
			if err != nil {
				once.Do(func() { firstErr = err; cancel() })
				return
			}
			out[page-from] = items
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
