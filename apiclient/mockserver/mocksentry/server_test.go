package mocksentry

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func get(t *testing.T, ts *httptest.Server, path, token string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, ts.URL+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// The Link header as Sentry's Paginator writes it for order_by "-id":
// the next cursor is the first id of the next page at offset 0, the last
// page's next cursor (its value unchanged: the offset moves on) has
// results="false", and the previous of the first
// page too.
func TestKeysLinkHeader(t *testing.T) {
	s := New(Options{ScaleKeys: 3, PublicURL: "https://sentry.example.com"})
	ts := httptest.NewServer(s)
	defer ts.Close()
	keys := s.Keys("demo", "legacy-api") // ids 2..6, oldest first
	resp, body := get(t, ts, "/api/0/projects/demo/legacy-api/keys/?per_page=2", TokenRead)
	var page []map[string]any
	if err := json.Unmarshal([]byte(body), &page); err != nil || len(page) != 2 || page[0]["id"] != keys[4].Public {
		t.Fatalf("%v %s", err, body)
	}
	want := `<https://sentry.example.com/api/0/projects/demo/legacy-api/keys/?per_page=2&cursor=6:0:1>; rel="previous"; results="false"; cursor="6:0:1", ` +
		`<https://sentry.example.com/api/0/projects/demo/legacy-api/keys/?per_page=2&cursor=4:0:0>; rel="next"; results="true"; cursor="4:0:0"`
	if got := resp.Header.Get("Link"); got != want {
		t.Fatalf("Link\n got %s\nwant %s", got, want)
	}
	resp, _ = get(t, ts, "/api/0/projects/demo/legacy-api/keys/?per_page=2&cursor=4:0:0", TokenRead)
	if !strings.Contains(resp.Header.Get("Link"), `rel="previous"; results="true"; cursor="4:0:1"`) || !strings.Contains(resp.Header.Get("Link"), `cursor=2:0:0>; rel="next"; results="true"`) {
		t.Fatalf("page 2: %s", resp.Header.Get("Link"))
	}
	resp, body = get(t, ts, "/api/0/projects/demo/legacy-api/keys/?per_page=2&cursor=2:0:0", TokenRead)
	if !strings.Contains(resp.Header.Get("Link"), `cursor=2:2:0>; rel="next"; results="false"; cursor="2:2:0"`) || strings.Count(body, `"id"`) != 1 {
		t.Fatalf("last page: %s %s", resp.Header.Get("Link"), body)
	}
	if resp, body := get(t, ts, "/api/0/projects/demo/legacy-api/keys/?cursor=nope", TokenRead); resp.StatusCode != 400 || !strings.Contains(body, "Invalid cursor parameter.") {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	if resp, body := get(t, ts, "/api/0/projects/demo/legacy-api/keys/?per_page=101", TokenRead); resp.StatusCode != 400 || !strings.Contains(body, "Cannot exceed 100") {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
}

func TestAuthAndCatchAll(t *testing.T) {
	ts := httptest.NewServer(New(Options{}))
	defer ts.Close()
	for _, tc := range []struct {
		path, token string
		status      int
		body        string
	}{
		{"/api/0/projects/demo/legacy-api/keys/", "", 401, `{"detail":"Authentication credentials were not provided."}`},
		{"/api/0/projects/demo/legacy-api/keys/", "nope", 401, `{"detail":"Invalid token"}`},
		{"/api/0/projects/demo/legacy-api/keys/", TokenExpired, 401, `{"detail":"Token expired"}`},
		{"/api/0/projects/demo/nope/keys/", TokenRead, 404, `{"detail":"The requested resource does not exist"}`},
		{"/api/0/projects/demo/legacy-api/keys/0123/", TokenRead, 404, `{"detail":"The requested resource does not exist"}`},
		{"/api/0/", "", 200, `{"auth":null,"user":null,"version":"0"}`},
		{"/api/0/projects/demo/legacy-api/keys", TokenRead, 404, "Route not found, did you forget a trailing slash?\n\ntry: /api/0/projects/demo/legacy-api/keys/\n"},
	} {
		resp, body := get(t, ts, tc.path, tc.token)
		if resp.StatusCode != tc.status || !strings.HasPrefix(body, tc.body) {
			t.Errorf("%s with %q: %d %s", tc.path, tc.token, resp.StatusCode, body)
		}
		if resp.StatusCode == 401 && resp.Header.Get("WWW-Authenticate") != `xBasic realm="api"` {
			t.Errorf("%s: WWW-Authenticate %q", tc.path, resp.Header.Get("WWW-Authenticate"))
		}
	}
}

// Relay's answers to an SDK: no key 401, a malformed key 400, an unknown
// key 403; an active key's envelope 200 with its event id.
func TestIngest(t *testing.T) {
	s := New(Options{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	k := s.Keys("demo", "legacy-api")[0]
	env := `{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc"}` + "\n" + `{"type":"event"}` + "\n{}\n"
	post := func(auth string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/api/2/envelope/", strings.NewReader(env))
		if auth != "" {
			req.Header.Set("X-Sentry-Auth", "Sentry sentry_key="+auth+", sentry_version=7")
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	for auth, want := range map[string]string{
		"":                                 `401 {"detail":"missing authorization information"}`,
		"xyz":                              `400 {"detail":"bad sentry DSN public key"}`,
		"0123456789abcdef0123456789abcdef": `403 {"detail":"event submission rejected with_reason: ProjectId"}`,
		k.Public:                           `200 {"id":"9ec79c33ec9942ab8353589fcb2e04dc"}`,
	} {
		if code, body := post(auth); strings.TrimSpace(body) != want[4:] || code != atoi(want[:3]) {
			t.Errorf("key %q: %d %s", auth, code, body)
		}
	}
	if s.Events(k.Public) != 1 {
		t.Fatalf("%d events", s.Events(k.Public))
	}
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		n = n*10 + int(r-'0')
	}
	return n
}
