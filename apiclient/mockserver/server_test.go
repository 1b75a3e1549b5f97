package mockserver

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

func newTest(t *testing.T, opts Options) (*Server, *httptest.Server) {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

type reply struct {
	status int
	header http.Header
	body   string
}

func do(t *testing.T, ts *httptest.Server, method, path, token string, hdr ...string) reply {
	t.Helper()
	var body io.Reader
	ct := ""
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] == "body" {
			body = strings.NewReader(hdr[i+1])
		}
		if hdr[i] == "Content-Type" {
			ct = hdr[i+1]
		}
	}
	req, err := http.NewRequest(method, ts.URL+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("PRIVATE-TOKEN", token)
	}
	if ct != "" {
		req.Header.Set("Content-Type", ct)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		if hdr[i] != "body" && hdr[i] != "Content-Type" {
			req.Header.Set(hdr[i], hdr[i+1])
		}
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, string(b)}
}

const (
	settings1 = "/api/v4/projects/1/error_tracking/settings"
	keys1     = "/api/v4/projects/1/error_tracking/client_keys"
)

func TestConcurrentWrites(t *testing.T) {
	s, ts := newTest(t, Options{})
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 25; j++ {
				do(t, ts, "POST", keys1, TokenMaintainer)
				do(t, ts, "GET", keys1, TokenMaintainer)
			}
		}()
	}
	wg.Wait()
	keys := s.Keys(1)
	if len(keys) != 202 {
		t.Fatalf("%d keys, want 202", len(keys))
	}
	for i := 1; i < len(keys); i++ {
		if keys[i].ID <= keys[i-1].ID {
			t.Fatal("ids not ascending and unique")
		}
	}
}

func BenchmarkSmallGET(b *testing.B) {
	s, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	req := httptest.NewRequest("GET", settings1, nil)
	req.Header.Set("PRIVATE-TOKEN", TokenMaintainer)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			w := httptest.NewRecorder()
			s.ServeHTTP(w, req)
			if w.Code != 200 {
				b.Fatal(w.Code)
			}
		}
	})
}

// Listening on every address prints a URL a client can use.
func TestListenAnyPrintsUsableURL(t *testing.T) {
	s, _ := New(Options{})
	r, err := s.Start("0.0.0.0:0")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(context.Background())
	if !strings.HasPrefix(r.URL, "http://127.0.0.1:") || !r.Public {
		t.Fatalf("URL %s public %v", r.URL, r.Public)
	}
	resp, err := http.Get(r.URL + "/api/v4/version?private_token=" + TokenMaintainer)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %v", resp, err)
	}
	resp.Body.Close()
	r2, _ := s.Start("127.0.0.1:0")
	defer r2.Close(context.Background())
	if r2.Public {
		t.Fatal("loopback is not public")
	}
}

// A client that never sends its request headers is cut off.
func TestServerTimeouts(t *testing.T) {
	s, _ := New(Options{})
	r, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(context.Background())
	if r.srv.ReadHeaderTimeout <= 0 || r.srv.ReadTimeout <= 0 || r.srv.IdleTimeout <= 0 {
		t.Fatalf("timeouts %v %v %v", r.srv.ReadHeaderTimeout, r.srv.ReadTimeout, r.srv.IdleTimeout)
	}
}

// row is one request and the status and body substring (a regexp when it
// starts with ^) it must produce.
type row struct {
	name, method, path, token string
	extra                     []string
	status                    int
	body                      string
}
