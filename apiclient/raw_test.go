package apiclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// RawPaginate follows the mock's pages (per_page 100: three pages) and
// joins them into one array of all 250 keys.
func TestRawPaginateJoinsPages(t *testing.T) {
	c, _ := againstMock(t, mockserver.Options{ScaleKeys: 248}, mockserver.TokenMaintainer)
	resp, body, err := c.RawPaginate(context.Background(), RawRequest{Path: "projects/1/error_tracking/client_keys"})
	if err != nil {
		t.Fatal(err)
	}
	var keys []map[string]any
	if err := json.Unmarshal(body, &keys); err != nil || len(keys) != 250 {
		t.Fatalf("%d keys, %v", len(keys), err)
	}
	if resp.StatusCode != 200 || resp.Header.Get("X-Total") != "250" {
		t.Fatalf("first page's answer: %d %v", resp.StatusCode, resp.Header)
	}
	// Without paging, one page: the mock's default of 20.
	_, body, err = c.RawCall(context.Background(), RawRequest{Method: "GET", Path: "projects/1/error_tracking/client_keys"})
	if err != nil || json.Unmarshal(body, &keys) != nil || len(keys) != 20 {
		t.Fatalf("%d keys, %v", len(keys), err)
	}
	// per_page given is kept: 250 keys in pages of 7 still join to 250.
	_, body, err = c.RawPaginate(context.Background(), RawRequest{Path: "projects/1/error_tracking/client_keys?per_page=7"})
	if err != nil || json.Unmarshal(body, &keys) != nil || len(keys) != 250 {
		t.Fatalf("%d keys, %v", len(keys), err)
	}
	if _, _, err := c.RawPaginate(context.Background(), RawRequest{Method: "POST", Path: "projects/1/error_tracking/client_keys"}); !errors.Is(err, ErrValidation) {
		t.Fatalf("POST paginated: %v", err)
	}
}

// A Link to another host is not followed (the token would go there), and
// neither is X-Next-Page going backwards; an object with no next page is
// returned as it is.
func TestRawPaginateStaysOnHost(t *testing.T) {
	var hits atomic.Int32
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer evil.Close()
	var self string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v4/away":
			w.Header().Set("Link", "<"+evil.URL+`/api/v4/away?page=2>; rel="next"`)
			fmt.Fprint(w, `[1]`)
		case "/api/v4/linked":
			if r.URL.Query().Get("page") == "2" {
				fmt.Fprint(w, `[2]`)
				return
			}
			w.Header().Set("Link", `<`+self+`/api/v4/other?x=1>; rel="first", <`+self+`/api/v4/linked?page=2&per_page=100>; rel="next"`)
			fmt.Fprint(w, `[1]`)
		case "/api/v4/loop":
			w.Header().Set("X-Next-Page", "1")
			fmt.Fprint(w, `[1]`)
		case "/api/v4/object":
			fmt.Fprint(w, `{"a":1}`)
		}
	}))
	defer ts.Close()
	self = ts.URL
	c, err := New(ts.URL, mockserver.TokenMaintainer)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, _, err := c.RawPaginate(ctx, RawRequest{Path: "away"}); !errors.Is(err, ErrBadResponse) || hits.Load() != 0 {
		t.Fatalf("followed a link to another host: %v, %d hits", err, hits.Load())
	}
	if _, b, err := c.RawPaginate(ctx, RawRequest{Path: "linked"}); err != nil || string(b) != "[1,2]" {
		t.Fatalf("%s %v", b, err)
	}
	if _, b, err := c.RawPaginate(ctx, RawRequest{Path: "loop"}); err != nil || string(b) != "[1]" {
		t.Fatalf("%s %v", b, err)
	}
	if _, b, err := c.RawPaginate(ctx, RawRequest{Path: "object"}); err != nil || string(b) != `{"a":1}` {
		t.Fatalf("%s %v", b, err)
	}
}

// Extra headers reach the server; credential and routing headers and
// values with CR/LF are refused before anything is sent; a header echoing
// the token comes back scrubbed.
func TestRawCallHeaders(t *testing.T) {
	var got http.Header
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = r.Header.Clone()
		w.Header().Set("X-Echo", "token="+r.Header.Get("PRIVATE-TOKEN"))
		fmt.Fprint(w, `{}`)
	}))
	defer ts.Close()
	c, err := New(ts.URL, mockserver.TokenMaintainer)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	resp, _, err := c.RawCall(ctx, RawRequest{Method: "GET", Path: "user", Header: http.Header{"X-Custom": {"yes"}, "Accept": {"text/plain"}}})
	if err != nil || got.Get("X-Custom") != "yes" || got.Get("Accept") != "text/plain" || got.Get("PRIVATE-TOKEN") != mockserver.TokenMaintainer {
		t.Fatalf("%v %v", got, err)
	}
	if strings.Contains(resp.Header.Get("X-Echo"), mockserver.TokenMaintainer) || resp.Header.Get("X-Echo") != "token=[redacted]" {
		t.Fatalf("token in the answer's headers: %v", resp.Header)
	}
	got = nil
	for _, h := range []http.Header{
		{"Private-Token": {"other"}}, {"Authorization": {"Bearer x"}}, {"Cookie": {"a=b"}}, {"Host": {"evil.example"}},
		{"Job-Token": {"x"}}, {"X-A": {"b\r\nPRIVATE-TOKEN: other"}}, {"X-A": {"b\nc"}}, {"Bad Name": {"x"}},
	} {
		if _, _, err := c.RawCall(ctx, RawRequest{Method: "GET", Path: "user", Header: h}); !errors.Is(err, ErrValidation) {
			t.Errorf("%v accepted: %v", h, err)
		}
	}
	if got != nil {
		t.Fatal("a refused header's request was sent")
	}
}

func TestRaw(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v4/projects/7/variables" && r.Method == "POST" {
			b := make([]byte, 100)
			n, _ := r.Body.Read(b)
			jsonReply(w, 201, string(b[:n]))
			return
		}
		jsonReply(w, 404, `{"message":"404 Variable Not Found"}`)
	})
	_, body, err := c.Raw(context.Background(), "post", "/api/v4/projects/7/variables", nil, map[string]string{"key": "K"})
	if err != nil || string(body) != `{"key":"K"}` {
		t.Fatalf("%s %v", body, err)
	}
	_, body, err = c.Raw(context.Background(), "GET", "projects/7/variables/X?filter[environment_scope]=*", nil, nil)
	if !errors.Is(err, ErrNotFound) || !strings.Contains(string(body), "Variable Not Found") {
		t.Fatalf("%s %v", body, err)
	}
	for _, bad := range []string{"https://evil.example/api/v4/user", "//evil/x", "projects/../../x", ""} {
		if _, _, err := c.Raw(context.Background(), "GET", bad, nil, nil); !errors.Is(err, ErrValidation) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, _, err := c.Raw(context.Background(), "TRACE", "user", nil, nil); !errors.Is(err, ErrValidation) {
		t.Error("TRACE accepted")
	}
}
