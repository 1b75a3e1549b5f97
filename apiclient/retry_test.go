package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

func TestRetriesIdempotentWithRetryAfter(t *testing.T) {
	var n atomic.Int32
	var waits []time.Duration
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) < 3 {
			w.Header().Set("Retry-After", "2")
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(429)
			fmt.Fprint(w, "Retry later\n")
			return
		}
		jsonReply(w, 200, `{"active":true,"integrated":true}`)
	})
	c.Sleep = func(ctx context.Context, d time.Duration) error { waits = append(waits, d); return nil }
	var events []RetryEvent
	c.onRetry = func(e RetryEvent) { events = append(events, e) }
	if _, _, err := c.GetSettings(context.Background(), ProjectID(1)); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 3 || len(waits) != 2 || waits[0] < 1900*time.Millisecond || waits[0] > 2*time.Second {
		t.Fatalf("attempts %d, waits %v", n.Load(), waits)
	}
	if len(events) != 2 || events[0].StatusCode != 429 || events[0].Wait != 2*time.Second || events[1].Attempt != 2 {
		t.Fatalf("retry events %+v", events)
	}
}

// A wait the caller's deadline cannot cover is not started: the error
// says how long the server asked for.
func TestRetryBudget(t *testing.T) {
	var n atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Retry-After", "60")
		w.WriteHeader(429)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _, err := c.GetSettings(ctx, ProjectID(1))
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Kind != ErrRateLimited || apiErr.RetryAfter != 60*time.Second {
		t.Fatalf("err = %#v", err)
	}
	if n.Load() != 1 {
		t.Fatalf("%d attempts; a 60 s wait is past the deadline, so none should be retried", n.Load())
	}
}

// A reset longer than the old 20 s cap is waited out when the deadline
// allows it, and said to the front end.
func TestLongRetryAfterWaitedWithinDeadline(t *testing.T) {
	var n atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "30")
			w.WriteHeader(429)
			return
		}
		jsonReply(w, 200, `{"active":true,"integrated":true}`)
	}, WithRetries(3, DefaultMaxWait))
	var slept time.Duration
	c.Sleep = func(ctx context.Context, d time.Duration) error { slept += d; return nil }
	var events []RetryEvent
	c.onRetry = func(e RetryEvent) { events = append(events, e) }
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, _, err := c.GetSettings(ctx, ProjectID(1)); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 2 || slept < 29*time.Second || len(events) != 1 || events[0].Wait != 30*time.Second {
		t.Fatalf("attempts %d, slept %v, events %+v", n.Load(), slept, events)
	}
}

// A read is retried on any 5xx (a 500 included); a write is not retried on
// a 500, whose change may have been applied.
func TestReadsRetriedOn5xx(t *testing.T) {
	for _, method := range []string{"GET", "PATCH"} {
		var n atomic.Int32
		c := setup(t, func(w http.ResponseWriter, r *http.Request) {
			if n.Add(1) == 1 {
				w.WriteHeader(500)
				return
			}
			jsonReply(w, 200, `{"active":true,"integrated":true}`)
		})
		c.Sleep = func(context.Context, time.Duration) error { return nil }
		var err error
		if method == "GET" {
			_, _, err = c.GetSettings(context.Background(), ProjectID(1))
		} else {
			_, _, err = c.UpdateSettings(context.Background(), ProjectID(1), true, nil)
		}
		if method == "GET" && (err != nil || n.Load() != 2) || method == "PATCH" && (err == nil || n.Load() != 1) {
			t.Fatalf("%s: %d attempts, %v", method, n.Load(), err)
		}
	}
}

func TestPostNeverRetried(t *testing.T) {
	for _, status := range []int{500, 502, 503, 504} {
		var n atomic.Int32
		c := setup(t, func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			w.WriteHeader(status)
		})
		if _, _, err := c.CreateClientKey(context.Background(), ProjectID(1)); err == nil {
			t.Fatal("no error")
		}
		if n.Load() != 1 {
			t.Fatalf("status %d: POST sent %d times", status, n.Load())
		}
	}
}

// A 429 refused the create before it was handled: after the reset it is
// sent again, once, and one key is made.
func TestPostRetriedAfterRateLimit(t *testing.T) {
	var n atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
			return
		}
		jsonReply(w, 201, `{"id":4,"active":true,"public_key":"k","errtracker_dsn":"d"}`)
	})
	k, _, err := c.CreateClientKey(context.Background(), ProjectID(1))
	if err != nil || k.ID != 4 || n.Load() != 2 {
		t.Fatalf("%v %v, %d sends", k, err, n.Load())
	}
}

// A create whose connection dropped after the server read it may have
// made a key: it is never sent again, and its error says the outcome is
// unknown.
func TestPostNotResentAfterConnectionFailure(t *testing.T) {
	var n atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		hj, _, _ := w.(http.Hijacker).Hijack()
		hj.Close() // the request was read; the answer is lost
	})
	_, _, err := c.CreateClientKey(context.Background(), ProjectID(1))
	if err == nil || !OutcomeUnknown(err) {
		t.Fatalf("err %v, unknown %v", err, OutcomeUnknown(err))
	}
	if n.Load() != 1 {
		t.Fatalf("the POST was sent %d times", n.Load())
	}
}

func TestConnectionErrorRetried(t *testing.T) {
	var n atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			hj, _, _ := w.(http.Hijacker).Hijack()
			hj.Close() // drop the connection mid-request
			return
		}
		jsonReply(w, 200, `{"id":1,"active":true,"public_key":"k","errtracker_dsn":"d"}`)
	})
	if _, _, err := c.DeleteClientKey(context.Background(), ProjectID(1), 1); err != nil {
		t.Fatal(err)
	}
	if n.Load() != 2 {
		t.Fatalf("attempts %d", n.Load())
	}
}

func TestServerWait(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	for _, tc := range []struct {
		h    http.Header
		want time.Duration
		ok   bool
	}{
		{http.Header{"Retry-After": {"7"}}, 7 * time.Second, true},
		{http.Header{"Retry-After": {now.Add(3 * time.Second).UTC().Format(http.TimeFormat)}}, 3 * time.Second, true},
		{http.Header{"Ratelimit-Reset": {"1000005"}}, 5 * time.Second, true},
		{http.Header{"Retry-After": {"soon"}}, 0, false},
		{http.Header{}, 0, false},
	} {
		got, ok := serverWait(tc.h, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("serverWait(%v) = %v, %v; want %v, %v", tc.h, got, ok, tc.want, tc.ok)
		}
	}
}
