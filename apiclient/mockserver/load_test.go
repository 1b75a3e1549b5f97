package mockserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"
)

// loadClient is one of the concurrent clients of TestConcurrentLoad.
type loadClient struct {
	created, deleted []int64
	lists            int
	err              error
}

func (lc *loadClient) run(ctx context.Context, c *http.Client, base string, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, seed))
	req := func(method, path string) (int, []byte, error) {
		// Requests run to completion: the deadline only stops new ones, so
		// every write's outcome is known.
		r, _ := http.NewRequest(method, base+path, nil)
		r.Header.Set("PRIVATE-TOKEN", TokenMaintainer)
		resp, err := c.Do(r)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp.StatusCode, b, err
	}
	var mine []int64
	for ctx.Err() == nil {
		switch op := rng.IntN(10); {
		case op < 4:
			code, b, err := req("POST", "/api/v4/projects/1/error_tracking/client_keys")
			if err != nil || code != 201 {
				lc.err = fmt.Errorf("create: %d %v %s", code, err, b)
				return
			}
			var k struct{ ID int64 }
			json.Unmarshal(b, &k)
			lc.created = append(lc.created, k.ID)
			mine = append(mine, k.ID)
		case op < 6 && len(mine) > 0:
			i := rng.IntN(len(mine))
			id := mine[i]
			code, b, err := req("DELETE", fmt.Sprintf("/api/v4/projects/1/error_tracking/client_keys/%d", id))
			if err != nil || code != 200 {
				lc.err = fmt.Errorf("delete %d: %d %v %s", id, code, err, b)
				return
			}
			mine = append(mine[:i], mine[i+1:]...)
			lc.deleted = append(lc.deleted, id)
		default:
			code, b, err := req("GET", "/api/v4/projects/1/error_tracking/client_keys?per_page=100")
			var keys []struct{ ID int64 }
			if err != nil || code != 200 || json.Unmarshal(b, &keys) != nil {
				lc.err = fmt.Errorf("list: %d %v", code, err)
				return
			}
			for i := 1; i < len(keys); i++ {
				if keys[i].ID <= keys[i-1].ID {
					lc.err = fmt.Errorf("list not in ascending id order: %v", keys)
					return
				}
			}
			// A key this client created and has not deleted must be listed,
			// when it falls within the first page.
			for _, id := range mine {
				if len(keys) < 100 && !slices.ContainsFunc(keys, func(k struct{ ID int64 }) bool { return k.ID == id }) {
					lc.err = fmt.Errorf("own key %d missing from a list", id)
					return
				}
			}
			lc.lists++
		}
	}
}

// TestConcurrentLoad runs 50 clients doing mixed operations for a bounded
// time: ids stay unique, lists consistent, and no write is lost.
func TestConcurrentLoad(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 10 * time.Second}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	const n = 50
	clients := make([]*loadClient, n)
	var wg sync.WaitGroup
	for i := range clients {
		clients[i] = &loadClient{}
		wg.Add(1)
		go func(lc *loadClient, seed uint64) {
			defer wg.Done()
			lc.run(ctx, client, ts.URL, seed)
		}(clients[i], uint64(i+1))
	}
	wg.Wait()
	want := map[int64]bool{1: true, 2: true}
	seen := map[int64]bool{}
	ops := 0
	for _, lc := range clients {
		if lc.err != nil {
			t.Fatal(lc.err)
		}
		for _, id := range lc.created {
			if seen[id] {
				t.Fatalf("key id %d created twice", id)
			}
			seen[id] = true
			want[id] = true
		}
		for _, id := range lc.deleted {
			delete(want, id)
		}
		ops += len(lc.created) + len(lc.deleted) + lc.lists
	}
	got := s.Keys(1)
	ids := make([]int64, 0, len(got))
	for _, k := range got {
		ids = append(ids, k.ID)
	}
	wantIDs := make([]int64, 0, len(want))
	for id := range want {
		wantIDs = append(wantIDs, id)
	}
	sort.Slice(wantIDs, func(i, j int) bool { return wantIDs[i] < wantIDs[j] })
	if !slices.Equal(ids, wantIDs) {
		t.Fatalf("server keys %v\nwant %v", ids, wantIDs)
	}
	t.Logf("%d clients, %d operations in 2 s, %d keys at the end", n, ops, len(ids))
	if ops < n {
		t.Fatal("the load test hardly ran")
	}
}
