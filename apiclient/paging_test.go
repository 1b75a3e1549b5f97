package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestListKeysPagingConcurrentInOrder(t *testing.T) {
	const total = 1050
	var inFlight, peak atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		cur := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			p := peak.Load()
			if cur <= p || peak.CompareAndSwap(p, cur) {
				break
			}
		}
		time.Sleep(5 * time.Millisecond)
		page := 0
		fmt.Sscan(r.URL.Query().Get("page"), &page)
		w.Header().Set("X-Total-Pages", "11")
		w.Header().Set("X-Total", fmt.Sprint(total))
		var parts []string
		for id := (page-1)*100 + 1; id <= min(page*100, total); id++ {
			parts = append(parts, fmt.Sprintf(`{"id":%d,"active":true,"public_key":"k","errtracker_dsn":"d"}`, id))
		}
		jsonReply(w, 200, "["+strings.Join(parts, ",")+"]")
	})
	keys, _, err := c.ListClientKeys(context.Background(), ProjectID(1))
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != total {
		t.Fatalf("%d keys", len(keys))
	}
	for i, k := range keys {
		if k.ID != int64(i+1) {
			t.Fatalf("key %d has id %d: not in server order", i, k.ID)
		}
	}
	if p := peak.Load(); p > DefaultConcurrency || p < 2 {
		t.Fatalf("peak concurrency %d", p)
	}
}

func TestListKeysFollowsNextPage(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		page := r.URL.Query().Get("page")
		next := map[string]string{"1": "2", "2": "3", "3": ""}[page]
		w.Header().Set("X-Next-Page", next)
		jsonReply(w, 200, `[{"id":`+page+`,"active":true,"public_key":"k","errtracker_dsn":"d"}]`)
	})
	keys, _, err := c.ListClientKeys(context.Background(), ProjectID(1))
	if err != nil || len(keys) != 3 || keys[2].ID != 3 {
		t.Fatal(keys, err)
	}
}

func TestHostileTotalPages(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Total-Pages", "999999999")
		jsonReply(w, 200, `[]`)
	})
	if _, _, err := c.ListClientKeys(context.Background(), ProjectID(1)); !errors.Is(err, ErrBadResponse) {
		t.Fatalf("err = %v", err)
	}
}
