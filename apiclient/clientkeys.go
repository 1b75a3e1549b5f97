package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

func keysPath(p ProjectRef) string {
	return "projects/" + p.escaped() + "/error_tracking/client_keys"
}

// ListClientKeys returns every client key of the project, in server order.
func (c *Client) ListClientKeys(ctx context.Context, p ProjectRef) ([]ClientKey, *Response, error) {
	return listAll[ClientKey](ctx, c, keysPath(p), nil)
}

// CreateClientKey creates a key. It is never retried: if the answer is lost,
// the key may exist anyway, so the caller should list keys before trying again.
func (c *Client) CreateClientKey(ctx context.Context, p ProjectRef) (*ClientKey, *Response, error) {
	r := request{method: http.MethodPost, path: keysPath(p)}
	k, resp, err := doOne[ClientKey](ctx, c, r)
	if err == nil {
		err = checkKey(r, resp, k, 0)
	}
	if err != nil {
		return nil, resp, err
	}
	return k, resp, nil
}

// DeleteClientKey deletes key id and returns the deleted key.
//
// A DELETE is retried when its answer is lost; if the retry then finds the
// key gone, the first attempt deleted it. That is success: the returned key
// holds only its ID and resp.AlreadyGone is set.
func (c *Client) DeleteClientKey(ctx context.Context, p ProjectRef, id int64) (*ClientKey, *Response, error) {
	if id <= 0 {
		return nil, nil, &APIError{Kind: ErrValidation, Message: "client key ID must be positive"}
	}
	r := request{method: http.MethodDelete, path: keysPath(p) + "/" + strconv.FormatInt(id, 10)}
	k, resp, err := doOne[ClientKey](ctx, c, r)
	if err != nil && resp != nil && resp.Attempts > 1 && errors.Is(err, ErrKeyNotFound) {
		resp.AlreadyGone = true
		return &ClientKey{ID: id}, resp, nil
	}
	if err != nil {
		return k, resp, err
	}
	if *k == (ClientKey{}) {
		k.ID = id // an empty answer (204): the key asked for is gone
		return k, resp, nil
	}
	// An answer with a body is the key deleted, not another one.
	if k.ID != id {
		return nil, resp, notThe("the key deleted", r, resp, []string{"it is another key"})
	}
	return k, resp, nil
}

// CountClientKeys counts a project's keys with one request for a page of
// one, read from X-Total. GitLab leaves X-Total out above 10,000 rows: known
// is then false and n is the least the server showed there are.
func (c *Client) CountClientKeys(ctx context.Context, p ProjectRef) (n int, known bool, err error) {
	q := url.Values{"page": {"1"}, "per_page": {"1"}}
	var keys []ClientKey
	resp, err := c.do(ctx, request{method: http.MethodGet, path: keysPath(p), query: q}, &keys)
	if err != nil {
		return 0, false, err
	}
	if resp.HasTotal {
		return resp.Total, true, nil
	}
	if resp.NextPage > 0 {
		return 10000, false, nil
	}
	return len(keys), true, nil
}

// FindClientKey looks for key id in the project's list, a page at a time
// in order with the client's page concurrency, and stops reading once it
// is found: a key near the start of 10,000 costs one request, not a
// hundred. seen holds the keys of the pages read, for a caller that checks
// more (the IDs that existed before a create). A key not listed is
// ErrKeyNotFound.
func (c *Client) FindClientKey(ctx context.Context, p ProjectRef, id int64) (k *ClientKey, seen []ClientKey, resp *Response, err error) {
	seen, resp, err = scanPages(ctx, c, keysPath(p), func(page []ClientKey) bool {
		for i := range page {
			if page[i].ID == id {
				k = &page[i]
				return true
			}
		}
		return false
	})
	if err == nil && k == nil {
		err = &APIError{StatusCode: http.StatusNotFound, Method: http.MethodGet, Path: "/api/v4/" + keysPath(p), Kind: ErrKeyNotFound, Message: fmt.Sprintf("client key %d is not listed", id)}
	}
	return k, seen, resp, err
}

// ListClientKeysFrom reads the project's keys from page on (a page of
// perPage keys): the newest keys are last, so a key just created is on the
// last page the caller already knew of, or after it.
func (c *Client) ListClientKeysFrom(ctx context.Context, p ProjectRef, page int) ([]ClientKey, *Response, error) {
	return listFrom[ClientKey](ctx, c, keysPath(p), page)
}

// KeysPerPage is how many keys a page of the key list holds here.
const KeysPerPage = perPage

// KeysPage is the page a key at 0-based position i is on.
func KeysPage(i int) int { return i/perPage + 1 }

// FirstClientKeys reads the first page of the project's keys only; resp
// tells the total when the server does.
func (c *Client) FirstClientKeys(ctx context.Context, p ProjectRef) ([]ClientKey, *Response, error) {
	return scanPages(ctx, c, keysPath(p), func([]ClientKey) bool { return true })
}

// LastClientKeys reads the last page of the project's keys, where a key just
// created is, in a few rounds of requests whatever the list's length: for a
// list the server no longer counts (more than 10,000).
func (c *Client) LastClientKeys(ctx context.Context, p ProjectRef) ([]ClientKey, error) {
	return lastPage[ClientKey](ctx, c, keysPath(p))
}
