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
		return concat(append([][]T{first}, pages...)), resp, nil
	case resp.NextPage > 1 && !resp.HasTotal:
		// No total (GitLab stops counting past 10,000 rows): pages go out
		// c.concurrency at a time all the same, up to the first short or
		// empty one; no page is asked for twice.
		rest, err := pagesAfter(c.concurrency, maxPages, func(page int) ([]T, int, error) {
			items, r, err := get(ctx, page)
			return items, nextOf(r), err
		}, func([]T) bool { return false })
		if err != nil {
			return nil, resp, err
		}
		return concat([][]T{first, rest}), resp, nil
	}
	return first, resp, nil
}

// concat joins pages into one slice of the exact size: appending page
// after page grows a 100,000-row list a quarter at a time, copying it
// each time.
func concat[T any](pages [][]T) []T {
	n := 0
	for _, p := range pages {
		n += len(p)
	}
	out := make([]T, 0, n)
	for _, p := range pages {
		out = append(out, p...)
	}
	return out
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
	if err != nil || stop(first) || len(first) == 0 || resp.NextPage <= 1 {
		return first, resp, err
	}
	last := maxPages
	if resp.HasTotal {
		last = resp.TotalPages
	}
	rest, err := pagesAfter(c.concurrency, last, func(page int) ([]T, int, error) {
		items, r, err := get(page)
		return items, nextOf(r), err
	}, stop)
	if err != nil {
		return nil, resp, err
	}
	return append(first, rest...), resp, nil
}

// pagesAfter reads pages 2..last, n at a time, and returns their items in
// order up to the page that ends the list (empty, or with no next page
// after it), or the first page stop accepts. A list longer than last
// pages is an error. Pages past the end that were already in flight are
// dropped; no page is asked for twice.
func pagesAfter[T any](n, last int, get func(page int) (items []T, next int, err error), stop func([]T) bool) ([]T, error) {
	var all [][]T
	n = max(n, 1)
	for from := 2; from <= last; from += n {
		to := min(from+n-1, last)
		items := make([][]T, to-from+1)
		nexts := make([]int, to-from+1)
		errs := make([]error, to-from+1)
		var wg sync.WaitGroup
		for page := from; page <= to; page++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				items[page-from], nexts[page-from], errs[page-from] = get(page)
			}()
		}
		wg.Wait()
		for i := range items {
			if errs[i] != nil {
				return nil, errs[i]
			}
			all = append(all, items[i])
			if stop(items[i]) || len(items[i]) == 0 || nexts[i] <= from+i {
				return concat(all), nil
			}
		}
	}
	if last >= maxPages {
		return nil, &APIError{Method: http.MethodGet, Kind: ErrBadResponse, Message: fmt.Sprintf("the server kept offering more pages; stopped after %d", maxPages)}
	}
	return concat(all), nil
}

// nextOf is the page the answer says comes next, 0 for none.
func nextOf(r *Response) int {
	if r == nil {
		return 0
	}
	return r.NextPage
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
