package mocksentry

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/base64"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// send posts body to path with key's X-Sentry-Auth and returns the answer.
func send(t *testing.T, ts *httptest.Server, path, key, encoding string, body []byte) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, ts.URL+path, bytes.NewReader(body))
	req.Header.Set("X-Sentry-Auth", "Sentry sentry_key="+key+", sentry_version=7")
	if encoding != "" {
		req.Header.Set("Content-Encoding", encoding)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, strings.TrimSpace(string(b))
}

const anEnvelope = `{"event_id":"9ec79c33ec9942ab8353589fcb2e04dc"}` + "\n" + `{"type":"event"}` + "\n{}\n"

// Relay routes only /api/ID/envelope/ and /api/ID/store/ with their
// slash; the unslashed form goes on to Sentry's web app, which redirects
// /api/X/… (X without a 0) to the API settings page and 404s the rest:
// nothing is ingested either way.
func TestIngestOnlyTheSlashedPaths(t *testing.T) {
	s := New(Options{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	k := s.Keys("demo", "legacy-api")[0]
	for _, tc := range []struct {
		path     string
		status   int
		location string
	}{
		{"/api/2/envelope", http.StatusFound, "/settings/account/api/"},
		{"/api/2/store", http.StatusFound, "/settings/account/api/"},
		{"/api/10/envelope", http.StatusNotFound, ""},
		{"/api/2/envelope/", http.StatusOK, ""},
	} {
		resp, body := send(t, ts, tc.path, k.Public, "", []byte(anEnvelope))
		if resp.StatusCode != tc.status || resp.Header.Get("Location") != tc.location {
			t.Errorf("%s: %d %q %s", tc.path, resp.StatusCode, resp.Header.Get("Location"), body)
		}
	}
	if n := s.Events(k.Public); n != 1 {
		t.Fatalf("%d events ingested, want the slashed one's only", n)
	}
}

// Relay's store endpoint, where older SDKs (Debian's python3-sentry-sdk
// 1.9) post one JSON event: plain, gzip, or base64 of zlib.
func TestIngestStore(t *testing.T) {
	s := New(Options{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	k := s.Keys("demo", "legacy-api")[0]
	event := []byte(`{"event_id":"0fd5bb1ee5884ab3a4bf33b60cbbb4e1","message":"x"}`)
	var gz, zl bytes.Buffer
	gw := gzip.NewWriter(&gz)
	gw.Write(event)
	gw.Close()
	zw := zlib.NewWriter(&zl)
	zw.Write(event)
	zw.Close()
	for name, tc := range map[string]struct {
		encoding string
		body     []byte
	}{
		"plain":       {"", event},
		"gzip":        {"gzip", gz.Bytes()},
		"base64 zlib": {"", []byte(base64.StdEncoding.EncodeToString(zl.Bytes()))},
	} {
		resp, body := send(t, ts, "/api/2/store/", k.Public, tc.encoding, tc.body)
		if resp.StatusCode != http.StatusOK || body != `{"id":"0fd5bb1ee5884ab3a4bf33b60cbbb4e1"}` {
			t.Errorf("%s: %d %s", name, resp.StatusCode, body)
		}
	}
	if resp, body := send(t, ts, "/api/2/store/", k.Public, "", []byte("{not json")); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("bad JSON: %d %s", resp.StatusCode, body)
	}
	if n := s.Events(k.Public); n != 3 {
		t.Fatalf("%d events", n)
	}
}

// A key's own rate limit holds at ingestion, per window: past its count
// Relay answers 429 with Retry-After (the seconds left in the window) and
// X-Sentry-Rate-Limits naming the key's quota; the next window accepts
// again. Nothing past the limit is counted.
func TestIngestKeyRateLimit(t *testing.T) {
	var mu sync.Mutex
	now := time.Unix(1_800_000_000, 0) // a multiple of 60: a window starts
	s := New(Options{Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }})
	ts := httptest.NewServer(s)
	defer ts.Close()
	staging := s.Keys("demo", "legacy-api")[1]
	if staging.Label != "Staging" || staging.RateCount != 1000 || staging.RateWindow != 3600 {
		t.Fatalf("the demo's rate-limited key: %+v", staging)
	}
	s.mu.Lock()
	k := s.st.project("demo", "legacy-api").key(staging.Public)
	k.RateCount, k.RateWindow = 2, 60
	s.mu.Unlock()
	mu.Lock()
	now = now.Add(15 * time.Second)
	mu.Unlock()
	for i := range 2 {
		if resp, body := send(t, ts, "/api/2/envelope/", k.Public, "", []byte(anEnvelope)); resp.StatusCode != http.StatusOK {
			t.Fatalf("event %d: %d %s", i+1, resp.StatusCode, body)
		}
	}
	resp, body := send(t, ts, "/api/2/envelope/", k.Public, "", []byte(anEnvelope))
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") != "45" ||
		resp.Header.Get("X-Sentry-Rate-Limits") != "45:default;error;security:key:key_quota" || !strings.Contains(body, "quota or internal rate limit") {
		t.Fatalf("past the limit: %d %v %s", resp.StatusCode, resp.Header, body)
	}
	mu.Lock()
	now = now.Add(45 * time.Second)
	mu.Unlock()
	if resp, body := send(t, ts, "/api/2/envelope/", k.Public, "", []byte(anEnvelope)); resp.StatusCode != http.StatusOK {
		t.Fatalf("next window: %d %s", resp.StatusCode, body)
	}
	if n := s.Events(k.Public); n != 3 {
		t.Fatalf("%d events counted", n)
	}
}

// Sentry's rate limit middleware runs before authentication: past the
// limit, a request with no token or a token Sentry does not know is 429,
// not 401 (counted by the client's address).
func TestRateLimitBeforeAuthentication(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	ts := httptest.NewServer(New(Options{RateLimit: 1, Now: func() time.Time { return now }}))
	defer ts.Close()
	if resp, body := get(t, ts, "/api/0/projects/demo/legacy-api/keys/", ""); resp.StatusCode != 401 {
		t.Fatalf("first, no token: %d %s", resp.StatusCode, body)
	}
	resp, body := get(t, ts, "/api/0/projects/demo/legacy-api/keys/", "not-a-token")
	if resp.StatusCode != 429 || resp.Header.Get("X-Sentry-Rate-Limit-Limit") != "1" {
		t.Fatalf("past the limit, a token Sentry does not know: %d %s", resp.StatusCode, body)
	}
	// A known token is counted on its own.
	if resp, body := get(t, ts, "/api/0/projects/demo/legacy-api/keys/", TokenRead); resp.StatusCode != 200 {
		t.Fatalf("a valid token: %d %s", resp.StatusCode, body)
	}
}

// An OPTIONS request to an ingestion path is a CORS preflight Relay's
// layer answers itself (errtrack's doctor probes a DSN so, sending no
// event); another method is 405.
func TestIngestPreflight(t *testing.T) {
	s := New(Options{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	for method, want := range map[string]int{http.MethodOptions: 200, http.MethodGet: 405} {
		req, _ := http.NewRequest(method, ts.URL+"/api/2/envelope/", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want || (method == http.MethodOptions && resp.Header.Get("Access-Control-Allow-Methods") != "POST") {
			t.Errorf("%s: %d %v", method, resp.StatusCode, resp.Header)
		}
	}
}

// Ingestion takes the DSN's public key (X-Sentry-Auth, or Authorization
// of the Sentry scheme), never an API token: a request carrying only
// the admin token has no key, 401.
func TestIngestTakesNoAPIToken(t *testing.T) {
	s := New(Options{})
	ts := httptest.NewServer(s)
	defer ts.Close()
	k := s.Keys("demo", "legacy-api")[0]
	for auth, want := range map[string]int{
		"Bearer " + TokenAdmin:                                 401,
		"Sentry sentry_key=" + k.Public + ", sentry_version=7": 200,
	} {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/api/2/envelope/", strings.NewReader(anEnvelope))
		req.Header.Set("Authorization", auth)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Authorization %s …: %d, want %d", strings.Fields(auth)[0], resp.StatusCode, want)
		}
	}
}
