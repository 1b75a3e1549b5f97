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

// scanPages reads a list's pages in order, c.concurrency at a time, and
// hands each to stop in page order; once stop returns true, no further
// page is read. It returns the items of the pages handed to stop.
func scanPages[T any](ctx context.Context, c *Client, path string, stop func([]T) bool) ([]T, *Response, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	budget := listBudget{max: c.maxList}
	get := func(page int) ([]T, *Response, error) {
		q := url.Values{"page": {strconv.Itoa(page)}, "per_page": {strconv.Itoa(perPage)}}
		var items []T
		resp, err := c.do(ctx, request{method: http.MethodGet, path: path, query: q}, &items)
		if err == nil {
			err = budget.add(path, resp)
		}
		return items, resp, err
	}
	first, resp, err := get(1)
	if err != nil || stop(first) || len(first) < perPage {
		return first, resp, err
	}
	all := first
	last := maxPages
	if resp.HasTotal {
		last = resp.TotalPages
	}
	type result struct {
		items []T
		err   error
	}
	for from := 2; from <= last; from += c.concurrency {
		to := min(from+c.concurrency-1, last)
		results := make([]result, to-from+1)
		var wg sync.WaitGroup
		for page := from; page <= to; page++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				items, _, err := get(page)
				results[page-from] = result{items, err}
			}()
		}
		wg.Wait()
		for _, r := range results {
			if r.err != nil {
				return nil, resp, r.err
			}
			all = append(all, r.items...)
			if stop(r.items) || len(r.items) < perPage {
				return all, resp, nil
			}
		}
	}
	return all, resp, nil
}

// listFrom reads a list from page on, following pages until a short one.
func listFrom[T any](ctx context.Context, c *Client, path string, page int) ([]T, *Response, error) {
	var all []T
	var first *Response
	budget := listBudget{max: c.maxList}
	for n := 0; n < maxPages; n, page = n+1, page+1 {
		q := url.Values{"page": {strconv.Itoa(page)}, "per_page": {strconv.Itoa(perPage)}}
		var items []T
		resp, err := c.do(ctx, request{method: http.MethodGet, path: path, query: q}, &items)
		if err == nil {
			err = budget.add(path, resp)
		}
		if err != nil {
			return nil, resp, err
		}
		if first == nil {
			first = resp
		}
		all = append(all, items...)
		if len(items) < perPage {
			break
		}
	}
	return all, first, nil
}

// lastPage finds the last non-empty page of a list without reading the
// pages before it, for a list too long for the server to count: a first
// round probes pages 2, 4, 8 … at once, then each round probes evenly
// between the last full page seen and the first short one, all at once,
// until they are next to each other. A list of 10,002 rows takes three
// rounds. It returns that page's items (a new row is last).
func lastPage[T any](ctx context.Context, c *Client, path string) ([]T, error) {
	budget := listBudget{max: c.maxList}
	get := func(page int) ([]T, error) {
		q := url.Values{"page": {strconv.Itoa(page)}, "per_page": {strconv.Itoa(perPage)}}
		var items []T
		resp, err := c.do(ctx, request{method: http.MethodGet, path: path, query: q}, &items)
		if err == nil {
			err = budget.add(path, resp)
		}
		return items, err
	}
	probe := func(pages []int) (map[int][]T, error) {
		out := make(map[int][]T, len(pages))
		var mu sync.Mutex
		var wg sync.WaitGroup
		var firstErr error
		for _, pg := range pages {
			wg.Add(1)
			go func() {
				defer wg.Done()
				items, err := get(pg)
				mu.Lock()
				defer mu.Unlock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				out[pg] = items
			}()
		}
		wg.Wait()
		return out, firstErr
	}
	full, short := 0, 0 // the last full page seen, the first short one
	var shortItems, fullItems []T
	round := []int{1}
	for p := 2; p <= maxPages; p *= 2 {
		round = append(round, p)
	}
	for len(round) > 0 {
		got, err := probe(round)
		if err != nil {
			return nil, err
		}
		for _, pg := range round {
			switch items := got[pg]; {
			case len(items) >= perPage && pg > full:
				full, fullItems = pg, items
			case len(items) < perPage && (short == 0 || pg < short):
				short, shortItems = pg, items
			}
		}
		if short == 0 {
			return nil, &APIError{Method: http.MethodGet, Path: "/api/v4/" + path, Kind: ErrBadResponse,
				Message: fmt.Sprintf("the list is longer than the %d pages errtrack reads", maxPages)}
		}
		if short <= full+1 {
			break
		}
		round = round[:0]
		step := max((short-full)/(c.concurrency*4), 1)
		for p := full + step; p < short; p += step {
			round = append(round, p)
		}
	}
	if len(shortItems) == 0 {
		return fullItems, nil
	}
	return shortItems, nil
}
