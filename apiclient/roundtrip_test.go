package apiclient

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

type recordingTransport struct {
	mu   sync.Mutex
	seen []*http.Request
	next http.RoundTripper
}

func (r *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.seen = append(r.seen, req)
	r.mu.Unlock()
	return r.next.RoundTrip(req)
}

// A caller's transport carries the requests (WithHTTPClient); the token is
// added to the client's API requests for its own host only, never to
// another host, whatever sends a request there through the same transport.
func TestInjectedTransportAndTokenHost(t *testing.T) {
	s, _ := mockserver.New(mockserver.Options{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("PRIVATE-TOKEN") != "" {
			t.Error("the token reached another host")
		}
	}))
	defer other.Close()
	rec := &recordingTransport{next: http.DefaultTransport}
	c, err := New(ts.URL, mockserver.TokenMaintainer, WithHTTPClient(&http.Client{Transport: rec}))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.CurrentUser(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(rec.seen) != 1 || rec.seen[0].Header.Get("PRIVATE-TOKEN") != mockserver.TokenMaintainer {
		t.Fatalf("the injected transport saw %d requests, token %q", len(rec.seen), rec.seen[0].Header.Get("PRIVATE-TOKEN"))
	}
	// An API call's request aimed elsewhere through the same stack.
	req, _ := http.NewRequestWithContext(context.WithValue(context.Background(), apiCall{}, true), "GET", other.URL+"/api/v4/user", nil)
	resp, err := c.http.Transport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if req.Header.Get("PRIVATE-TOKEN") != "" {
		t.Fatal("the caller's request was changed")
	}
}
