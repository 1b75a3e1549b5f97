package apiclient

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// countingHandler counts requests by method in front of the mock server.
type countingHandler struct {
	next        http.Handler
	posts, dels atomic.Int64
	// throttledPosts are POSTs answered 429: refused before they were
	// handled, the only POSTs sent again.
	throttledPosts atomic.Int64
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) { w.status = code; w.ResponseWriter.WriteHeader(code) }

func (c *countingHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodPost:
		c.posts.Add(1)
	case http.MethodDelete:
		c.dels.Add(1)
	}
	sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
	c.next.ServeHTTP(sw, r)
	if r.Method == http.MethodPost && sw.status == http.StatusTooManyRequests {
		c.throttledPosts.Add(1)
	}
}

// TestSoakUnderFaults runs a few hundred creates, lists and deletes against a
// mock server that fails 20% of requests. Afterwards the server holds exactly
// the keys the test believes exist: no duplicate from a retried create, no
// key deleted that was not meant to be.
func TestSoakUnderFaults(t *testing.T) {
	zero := 0
	srv, err := mockserver.New(mockserver.Options{FailRate: 0.2, FailSeed: 42, Latency: time.Millisecond, FaultRetryAfter: &zero})
	if err != nil {
		t.Fatal(err)
	}
	counter := &countingHandler{next: srv}
	ts := httptest.NewServer(counter)
	defer ts.Close()
	c, err := New(ts.URL, mockserver.TokenMaintainer, WithRetries(3, 5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	p := ProjectID(1)
	believed := map[int64]bool{}
	for _, k := range srv.Keys(1) {
		believed[k.ID] = true
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var creates, createFails, deletes, deleteFails, lists, listFails int
	const ops = 300
	for i := 0; i < ops; i++ {
		switch r := rng.IntN(10); {
		case r < 4:
			creates++
			k, _, err := c.CreateClientKey(ctx, p)
			if err != nil {
				createFails++
				continue
			}
			if believed[k.ID] {
				t.Fatalf("key id %d handed out twice", k.ID)
			}
			believed[k.ID] = true
		case r < 7 && len(believed) > 0:
			ids := make([]int64, 0, len(believed))
			for id := range believed {
				ids = append(ids, id)
			}
			slices.Sort(ids)
			id := ids[rng.IntN(len(ids))]
			deletes++
			k, _, err := c.DeleteClientKey(ctx, p, id)
			switch {
			case err == nil:
				if k.ID != id {
					t.Fatalf("deleted %d, asked for %d", k.ID, id)
				}
				delete(believed, id)
			case errors.Is(err, ErrKeyNotFound):
				t.Fatalf("key %d vanished: %v", id, err)
			default:
				deleteFails++
			}
		default:
			lists++
			keys, _, err := c.ListClientKeys(ctx, p)
			if err != nil {
				listFails++
				continue
			}
			if len(keys) != len(believed) {
				t.Fatalf("list has %d keys, the test believes %d", len(keys), len(believed))
			}
			for _, k := range keys {
				if !believed[k.ID] {
					t.Fatalf("unexpected key %d in the list", k.ID)
				}
			}
		}
	}
	final := srv.Keys(1)
	if len(final) != len(believed) {
		t.Fatalf("server has %d keys, test believes %d", len(final), len(believed))
	}
	for _, k := range final {
		if !believed[k.ID] {
			t.Fatalf("server has key %d the test does not know", k.ID)
		}
	}
	// Every POST beyond one per create followed a 429 (refused before it
	// was handled); a create that met a 500, a 502 or a lost answer was
	// never sent again.
	if got, again := counter.posts.Load(), counter.throttledPosts.Load(); got-int64(creates) > again {
		t.Fatalf("%d creates sent %d POSTs, only %d of them answered 429: a create was retried after a failure that may have made a key", creates, got, again)
	}
	t.Logf("%d ops: %d creates (%d failed, retried only after a 429), %d deletes (%d failed after retries), %d lists (%d failed after retries); %d DELETE requests; %d keys at the end",
		ops, creates, createFails, deletes, deleteFails, lists, listFails, counter.dels.Load(), len(final))
	if createFails == 0 || counter.dels.Load() == int64(deletes) {
		t.Fatal("the fault injection did not bite; the soak proves nothing")
	}
}
