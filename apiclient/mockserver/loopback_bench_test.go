package mockserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"testing"
	"time"
)

// benchLoopback sends b.N small GETs to h over loopback from 50 concurrent
// clients and reports requests per second and the 99th percentile latency.
func benchLoopback(b *testing.B, h http.Handler) { benchLoopbackPath(b, h, settings1) }

func benchLoopbackPath(b *testing.B, h http.Handler, path string) {
	ts := httptest.NewServer(h)
	defer ts.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64, MaxConnsPerHost: 64}}
	const workers = 50
	url := ts.URL + path
	lat := make([]time.Duration, b.N)
	var next int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest("GET", url, nil)
			req.Header.Set("PRIVATE-TOKEN", TokenMaintainer)
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= int64(b.N) {
					return
				}
				t0 := time.Now()
				resp, err := client.Do(req)
				if err != nil {
					b.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					b.Errorf("status %d", resp.StatusCode)
					return
				}
				lat[i] = time.Since(t0)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkLoopbackSmallGET is the mock server answering GET settings.
func BenchmarkLoopbackSmallGET(b *testing.B) {
	s, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	benchLoopback(b, s)
}

// BenchmarkLoopbackBareHandler is the ceiling: a bare net/http handler
// writing the same bytes with the same headers, on the same machine.
func BenchmarkLoopbackBareHandler(b *testing.B) {
	body := []byte(`{"active":true,"project_name":null,"errtracker_external_url":null,"api_url":null,"integrated":true}`)
	benchLoopback(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		w.Write(body)
	}))
}

const keysPage100 = "/api/v4/projects/1/error_tracking/client_keys?page=1&per_page=100"

// BenchmarkLoopbackKeysPage is the mock server answering a page of 100
// client keys; BenchmarkLoopbackKeysPageBare the same bytes and headers
// from a bare handler, its ceiling.
func BenchmarkLoopbackKeysPage(b *testing.B) {
	s, err := New(Options{ScaleKeys: 98})
	if err != nil {
		b.Fatal(err)
	}
	benchLoopbackPath(b, s, keysPage100)
}

func BenchmarkLoopbackKeysPageBare(b *testing.B) {
	s, err := New(Options{ScaleKeys: 98})
	if err != nil {
		b.Fatal(err)
	}
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", keysPage100, nil)
	req.Header.Set("PRIVATE-TOKEN", TokenMaintainer)
	s.ServeHTTP(rec, req)
	body, header := rec.Body.Bytes(), rec.Header()
	benchLoopbackPath(b, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range header {
			w.Header()[k] = v
		}
		w.WriteHeader(200)
		w.Write(body)
	}), keysPage100)
}
