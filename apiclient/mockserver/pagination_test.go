package mockserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestPagination(t *testing.T) {
	_, ts := newTest(t, Options{ScaleKeys: 43}) // 45 keys on project 1
	got := do(t, ts, "GET", keys1, TokenMaintainer)
	h := got.header
	for k, want := range map[string]string{"X-Total": "45", "X-Total-Pages": "3", "X-Per-Page": "20", "X-Page": "1", "X-Next-Page": "2", "X-Prev-Page": ""} {
		if v, ok := h[http.CanonicalHeaderKey(k)]; !ok || v[0] != want {
			t.Errorf("%s = %v, want %q", k, v, want)
		}
	}
	link := h.Get("Link")
	if !strings.Contains(link, `id=1&page=2&per_page=20>; rel="next"`) || !strings.Contains(link, `rel="first"`) || !strings.Contains(link, `page=3&per_page=20>; rel="last"`) || strings.Contains(link, "prev") {
		t.Errorf("Link = %s", link)
	}
	got = do(t, ts, "GET", keys1+"?page=3&per_page=20", TokenMaintainer)
	var keys []map[string]any
	if err := json.Unmarshal([]byte(got.body), &keys); err != nil || len(keys) != 5 {
		t.Fatalf("last page: %d keys, %v", len(keys), err)
	}
	if got.header.Get("X-Next-Page") != "" || got.header.Get("X-Prev-Page") != "2" || keys[4]["id"].(float64) != 46 {
		t.Errorf("last page headers %v", got.header)
	}
	got = do(t, ts, "GET", keys1+"?per_page=1000", TokenMaintainer)
	if got.header.Get("X-Per-Page") != "100" || got.header.Get("X-Total-Pages") != "1" {
		t.Errorf("per_page not clamped: %v", got.header)
	}
	got = do(t, ts, "GET", keys1+"?per_page=abc&page=zz", TokenMaintainer)
	if got.header.Get("X-Per-Page") != "20" || got.header.Get("X-Page") != "1" {
		t.Errorf("junk params: %v", got.header)
	}
	got = do(t, ts, "GET", "/api/v4/projects/2/error_tracking/client_keys", TokenMaintainer)
	if got.header.Get("X-Total") != "0" || got.header.Get("X-Total-Pages") != "1" {
		t.Errorf("empty list headers: %v", got.header)
	}
}

// A page beyond any integer is an empty page, never a crash.
func TestHugePageNumbers(t *testing.T) {
	_, ts := newTest(t, Options{})
	for _, q := range []string{"page=9223372036854775807", "page=9223372036854775807&per_page=100", "per_page=9223372036854775807", "page=99999999999999999999999"} {
		r := do(t, ts, "GET", "/api/v4/projects/1/error_tracking/client_keys?"+q, TokenMaintainer)
		if r.status != 200 {
			t.Fatalf("%s: %d %s", q, r.status, r.body)
		}
	}
	r := do(t, ts, "GET", "/api/v4/projects/1/error_tracking/client_keys?page=9223372036854775807", TokenMaintainer)
	if r.body != "[]" {
		t.Fatalf("beyond the last page: %s", r.body)
	}
}

// The rest of §11's pagination table.
func TestPaginationEdges(t *testing.T) {
	_, ts := newTest(t, Options{ScaleKeys: 48}) // 50 keys in project 1
	for q, want := range map[string]string{"per_page=-1": "20", "per_page=abc": "20", "per_page=101": "100", "per_page=1abc": "1"} {
		if r := do(t, ts, "GET", keys1+"?"+q, TokenMaintainer); r.header.Get("X-Per-Page") != want {
			t.Errorf("%s: X-Per-Page %q, want %s", q, r.header.Get("X-Per-Page"), want)
		}
	}
	if r := do(t, ts, "GET", keys1+"?page=2abc", TokenMaintainer); r.header.Get("X-Page") != "2" {
		t.Errorf("page=2abc: X-Page %q", r.header.Get("X-Page"))
	}
	r := do(t, ts, "GET", keys1+"?page=9", TokenMaintainer)
	if r.body != "[]" || r.header.Get("X-Page") != "9" || r.header.Get("X-Next-Page") != "" || r.header.Get("X-Prev-Page") != "" || strings.Contains(r.header.Get("Link"), `rel="prev"`) {
		t.Errorf("beyond the last page: %s %v", r.body, r.header)
	}
	r = do(t, ts, "GET", "/api/v4/projects/demo%2Fweb-shop/error_tracking/client_keys?per_page=20", TokenMaintainer)
	if l := r.header.Get("Link"); !strings.Contains(l, "id=demo%2Fweb-shop") || strings.Contains(l, "%252F") || !strings.Contains(l, "per_page=20") {
		t.Errorf("Link: %s", l)
	}
}

// Above 10,000 rows GitLab stops counting.
func TestNoTotalsAboveTenThousand(t *testing.T) {
	_, ts := newTest(t, Options{ScaleKeys: 10001})
	r := do(t, ts, "GET", keys1+"?per_page=100", TokenMaintainer)
	if r.header.Get("X-Total") != "" || r.header.Get("X-Total-Pages") != "" || strings.Contains(r.header.Get("Link"), `rel="last"`) || r.header.Get("X-Next-Page") != "2" {
		t.Fatalf("%v", r.header)
	}
	_, small := newTest(t, Options{})
	if r := do(t, small, "GET", keys1, TokenMaintainer); r.header.Get("X-Total") != "2" {
		t.Fatalf("%v", r.header)
	}
}
