package apiclient

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// Under the mock's GitLab-like limit (10 a minute here), 40 reads all
// complete: the client slows down near the limit and, on a 429, the host's
// pacer holds every request until the reset. Time is virtual: sleeping
// moves the mock server's clock.
func TestRateLimitedReadsComplete(t *testing.T) {
	var mu sync.Mutex
	clock := time.Now()
	now := func() time.Time { mu.Lock(); defer mu.Unlock(); return clock }
	srv, err := mockserver.New(mockserver.Options{RateLimit: 10, Instance: mockserver.InstanceGitLabCom, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	var throttled atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, r)
		if rec.Code == http.StatusTooManyRequests {
			throttled.Add(1)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		w.Write(rec.Body.Bytes())
	}))
	defer ts.Close()
	c, err := New(ts.URL, mockserver.TokenMaintainer, WithRetries(5, DefaultMaxWait))
	if err != nil {
		t.Fatal(err)
	}
	var slept time.Duration
	c.Sleep = func(ctx context.Context, d time.Duration) error {
		mu.Lock()
		clock = clock.Add(d)
		slept += d
		mu.Unlock()
		return nil
	}
	c.Now, c.pace = now, &pacer{}
	for i := range 40 {
		if _, _, err := c.GetSettings(context.Background(), ProjectID(1)); err != nil {
			t.Fatalf("read %d: %v", i, err)
		}
	}
	if slept < 2*time.Minute || slept > 5*time.Minute {
		t.Fatalf("40 reads at 10 a minute took %v of waiting", slept)
	}
	t.Logf("40 reads, %d answered 429, %v waited", throttled.Load(), slept.Round(time.Second))
}

// The mock server answers as GitLab.com's throttle does: RateLimit-* on
// every answer it counts, the period on the minute's boundary.
func TestMockRateLimitHeaders(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 45, 0, time.UTC) // 15 s before the period ends
	srv, _ := mockserver.New(mockserver.Options{RateLimit: 2, Instance: mockserver.InstanceGitLabCom, Now: func() time.Time { return at }})
	ts := httptest.NewServer(srv)
	defer ts.Close()
	get := func() *http.Response {
		req, _ := http.NewRequest("GET", ts.URL+"/api/v4/user", nil)
		req.Header.Set("PRIVATE-TOKEN", mockserver.TokenMaintainer)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	first := get()
	if first.StatusCode != 200 || first.Header.Get("RateLimit-Limit") != "2" || first.Header.Get("RateLimit-Remaining") != "1" || first.Header.Get("Retry-After") != "" {
		t.Fatalf("%d %v", first.StatusCode, first.Header)
	}
	get()
	third := get()
	if third.StatusCode != 429 || third.Header.Get("Retry-After") != "15" || third.Header.Get("RateLimit-ResetTime") != "Sun, 01 Mar 2026 12:01:00 GMT" ||
		third.Header.Get("RateLimit-Reset") != "1772366460" || third.Header.Get("RateLimit-Remaining") != "0" {
		t.Fatalf("%d %v", third.StatusCode, third.Header)
	}
}

// The last page of a list the server does not count is found in a few
// rounds, whatever its length.
func TestLastPage(t *testing.T) {
	for _, n := range []int{0, 1, 99, 100, 101, 250, 10002, 40000} {
		var requests atomic.Int32
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			requests.Add(1)
			page, _ := strconv.Atoi(r.URL.Query().Get("page"))
			var keys []string
			for i := (page - 1) * 100; i < min(page*100, n); i++ {
				keys = append(keys, fmt.Sprintf(`{"id":%d}`, i+1))
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, "[%s]", strings.Join(keys, ","))
		}))
		c, _ := New(ts.URL, "tok-12345678", WithRetries(0, 0))
		keys, err := c.LastClientKeys(context.Background(), ProjectID(1))
		ts.Close()
		if err != nil {
			t.Fatalf("%d keys: %v", n, err)
		}
		want := n % 100
		if want == 0 && n > 0 {
			want = 100
		}
		if len(keys) != want || (n > 0 && keys[len(keys)-1].ID != int64(n)) {
			t.Fatalf("%d keys: last page has %d, ending %v", n, len(keys), keys)
		}
		t.Logf("%d keys: %d requests", n, requests.Load())
	}
}
