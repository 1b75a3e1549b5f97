package mockserver

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
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

// TestStatusTables walks the status-code tables of gitlab-api.md §0 and §2.
func TestStatusTables(t *testing.T) {
	cases := []struct {
		name, method, path, token string
		extra                     []string
		status                    int
		body                      string // substring, or a regexp when it starts with ^
	}{
		// §0 error summary
		{"no credentials", "GET", settings1, "", nil, 401, `{"message":"401 Unauthorized"}`},
		{"garbage token", "GET", settings1, "nope", nil, 401, `{"message":"401 Unauthorized"}`},
		{"expired token", "GET", settings1, TokenExpired, nil, 401, `"error":"invalid_token","error_description":"Token is expired. You can either do re-authorization or token refresh."`},
		{"revoked token", "GET", settings1, TokenRevoked, nil, 401, `Token was revoked. You have to re-authorize from the user.`},
		{"read_api on PUT", "PUT", settings1 + "?active=true&integrated=true", TokenReadOnly, nil, 403, `"error":"insufficient_scope"`},
		{"read_api on PATCH", "PATCH", settings1 + "?active=true", TokenReadOnly, nil, 403, `insufficient_scope`},
		{"read_api on POST", "POST", keys1, TokenReadOnly, nil, 403, `insufficient_scope`},
		{"read_api on DELETE", "DELETE", keys1 + "/1", TokenReadOnly, nil, 403, `insufficient_scope`},
		{"read_api GET settings", "GET", settings1, TokenReadOnly, nil, 200, `"active":true`},
		{"read_api GET keys", "GET", keys1, TokenReadOnly, nil, 200, `"public_key":"glet_`},
		{"unauthenticated beats missing project", "GET", "/api/v4/projects/999/error_tracking/settings", "", nil, 401, `401 Unauthorized`},
		{"project missing", "GET", "/api/v4/projects/999/error_tracking/settings", TokenMaintainer, nil, 404, `{"message":"404 Project Not Found"}`},
		{"non-member private project", "GET", "/api/v4/projects/6/error_tracking/settings", TokenMaintainer, nil, 404, `404 Project Not Found`},
		{"bare name is no project", "GET", "/api/v4/projects/web-shop/error_tracking/settings", TokenMaintainer, nil, 404, `404 Project Not Found`},
		{"developer GET settings", "GET", settings1, TokenDeveloper, nil, 403, `{"message":"403 Forbidden"}`},
		{"developer invalid body still 403", "PUT", settings1 + "?active=maybe", TokenDeveloper, nil, 403, `403 Forbidden`},
		{"developer keys", "GET", keys1, TokenDeveloper, nil, 403, `403 Forbidden`},
		{"developer POST", "POST", keys1, TokenDeveloper, nil, 403, `403 Forbidden`},
		{"developer DELETE", "DELETE", keys1 + "/1", TokenDeveloper, nil, 403, `403 Forbidden`},
		{"developer PATCH", "PATCH", settings1 + "?active=true", TokenDeveloper, nil, 403, `403 Forbidden`},
		{"unencoded slash", "GET", "/api/v4/projects/demo/web-shop/error_tracking/settings", TokenMaintainer, nil, 404, `{"error":"404 Not Found"}`},
		{"unknown route", "GET", "/api/v4/nothing", TokenMaintainer, nil, 404, `{"error":"404 Not Found"}`},
		// §2.1 GET
		{"GET settings", "GET", settings1, TokenMaintainer, nil, 200, `{"active":true,"project_name":null,"errtracker_external_url":null,"api_url":null,"integrated":true}`},
		{"GET settings by path", "GET", "/api/v4/projects/demo%2Fweb-shop/error_tracking/settings", TokenMaintainer, nil, 200, `"integrated":true`},
		{"GET settings Bearer", "GET", settings1, "", []string{"Authorization", "Bearer " + TokenMaintainer}, 200, `"integrated":true`},
		{"GET settings private_token", "GET", settings1 + "?private_token=" + TokenMaintainer, "", nil, 200, `"integrated":true`},
		{"GET no settings", "GET", "/api/v4/projects/2/error_tracking/settings", TokenMaintainer, nil, 404, `{"message":"404 Error Tracking Setting Not Found"}`},
		{"GET sentry settings", "GET", "/api/v4/projects/3/error_tracking/settings", TokenMaintainer, nil, 200, `{"active":true,"project_name":"Legacy API","errtracker_external_url":"https://sentry.example.com/demo/legacy-api/","api_url":"https://sentry.example.com/api/0/projects/demo/legacy-api/","integrated":false}`},
		// §2.2 PUT
		{"PUT existing inactive", "PUT", "/api/v4/projects/5/error_tracking/settings?active=false&integrated=true", TokenMaintainer, nil, 200, `"active":false,`},
		{"PUT creates", "PUT", "/api/v4/projects/2/error_tracking/settings?active=true&integrated=true", TokenMaintainer, nil, 200, `{"active":true,"project_name":null,"errtracker_external_url":null,"api_url":null,"integrated":true}`},
		{"PUT flag off", "PUT", "/api/v4/projects/4/error_tracking/settings?active=true&integrated=true", TokenMaintainer, nil, 404, `{"message":"404 Not Found"}`},
		{"PUT flag off, bad params is 400", "PUT", "/api/v4/projects/4/error_tracking/settings?active=true", TokenMaintainer, nil, 400, `integrated is missing`},
		{"PUT integrated invalid", "PUT", settings1 + "?active=true&integrated=invalid_string", TokenMaintainer, nil, 400, `{"error":"integrated is invalid"}`},
		{"PUT integrated missing", "PUT", settings1 + "?active=true", TokenMaintainer, nil, 400, `{"error":"integrated is missing"}`},
		{"PUT empty", "PUT", settings1, TokenMaintainer, nil, 400, `{"error":"active is missing, active is empty, integrated is missing"}`},
		{"PUT sentry validation", "PUT", "/api/v4/projects/2/error_tracking/settings?active=true&integrated=false", TokenMaintainer, nil, 200, `"status":"error"`},
		{"PUT form body", "PUT", settings1, TokenMaintainer, []string{"Content-Type", "application/x-www-form-urlencoded", "body", "active=yes&integrated=1"}, 200, `"active":true`},
		{"PUT JSON body", "PUT", settings1, TokenMaintainer, []string{"Content-Type", "application/json", "body", `{"active":false,"integrated":true}`}, 200, `"active":false`},
		{"PUT JSON wrong type", "PUT", settings1, TokenMaintainer, []string{"Content-Type", "application/json", "body", `{"active":7,"integrated":true}`}, 400, `active is invalid`},
		// §2.3 PATCH
		{"PATCH disable", "PATCH", settings1 + "?active=false&integrated=false", TokenMaintainer, nil, 200, `{"active":false,"project_name":null,"errtracker_external_url":null,"api_url":null,"integrated":false}`},
		{"PATCH flag off masks integrated", "PATCH", "/api/v4/projects/4/error_tracking/settings?active=true", TokenMaintainer, nil, 404, `404 Error Tracking Setting Not Found`},
		{"PATCH active invalid", "PATCH", settings1 + "?active=randomstring", TokenMaintainer, nil, 400, `{"error":"active is invalid"}`},
		{"PATCH active empty", "PATCH", settings1 + "?active=", TokenMaintainer, nil, 400, `{"error":"active is empty"}`},
		{"PATCH enable integrated", "PATCH", "/api/v4/projects/5/error_tracking/settings?active=true&integrated=true", TokenMaintainer, nil, 200, `"active":true,"project_name":null,"errtracker_external_url":null,"api_url":null,"integrated":true`},
		{"PATCH no settings", "PATCH", "/api/v4/projects/2/error_tracking/settings?active=true", TokenMaintainer, nil, 404, `404 Error Tracking Setting Not Found`},
		{"PATCH trailing slash", "PATCH", settings1 + "/?active=true", TokenMaintainer, nil, 200, `"active":true`},
		// §2.5 - 2.7 keys
		{"GET keys", "GET", keys1, TokenMaintainer, nil, 200, `^\[\{"id":1,"active":true,"public_key":"glet_[0-9a-f]{32}","errtracker_dsn":"http://glet_[0-9a-f]{32}@127\.0\.0\.1:\d+/errortracking/api/v1/projects/1"\},\{"id":2,`},
		{"GET keys empty project", "GET", "/api/v4/projects/2/error_tracking/client_keys", TokenMaintainer, nil, 200, `[]`},
		{"POST key", "POST", keys1, TokenMaintainer, []string{"Content-Type", "application/json"}, 201, `"id":4,"active":true,"public_key":"glet_`},
		{"DELETE key", "DELETE", keys1 + "/1", TokenMaintainer, nil, 200, `^\{"id":1,"active":true,"public_key":"glet_[0-9a-f]{32}","errtracker_dsn":"http://glet_`},
		{"DELETE unknown key", "DELETE", keys1 + "/999", TokenMaintainer, nil, 404, `{"message":"404 Not found"}`},
		{"DELETE other project's key", "DELETE", keys1 + "/3", TokenMaintainer, nil, 404, `{"message":"404 Not found"}`},
		{"DELETE non-numeric key", "DELETE", keys1 + "/abc", TokenMaintainer, nil, 404, `{"message":"404 Not found"}`},
		{"wrong method", "POST", settings1, TokenMaintainer, nil, 404, `{"error":"404 Not Found"}`},
		// §7 related endpoints
		{"user", "GET", "/api/v4/user", TokenMaintainer, nil, 200, `"username":"demo-maintainer"`},
		{"token self", "GET", "/api/v4/personal_access_tokens/self", TokenReadOnly, nil, 200, `"scopes":["read_api"]`},
		{"version", "GET", "/api/v4/version", TokenMaintainer, nil, 200, `"version":"17.5.0"`},
		{"project by path", "GET", "/api/v4/projects/demo%2Fpaused", TokenMaintainer, nil, 200, `"permissions":{"project_access":{"access_level":40,"notification_level":3},"group_access":null}`},
		{"project invisible", "GET", "/api/v4/projects/6", TokenMaintainer, nil, 404, `404 Project Not Found`},
		{"projects", "GET", "/api/v4/projects?min_access_level=40&order_by=path&sort=asc", TokenMaintainer, nil, 200, `"path_with_namespace":"demo/legacy-api"`},
		{"projects as developer", "GET", "/api/v4/projects?min_access_level=40", TokenDeveloper, nil, 200, `[]`},
		{"projects bad level", "GET", "/api/v4/projects?min_access_level=41", TokenMaintainer, nil, 400, `min_access_level does not have a valid value`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, ts := newTest(t, Options{})
			got := do(t, ts, tc.method, tc.path, tc.token, tc.extra...)
			if got.status != tc.status {
				t.Fatalf("status %d, want %d; body %s", got.status, tc.status, got.body)
			}
			if ct := got.header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
			if strings.HasPrefix(tc.body, "^") {
				if !regexp.MustCompile(tc.body).MatchString(got.body) {
					t.Fatalf("body %s does not match %s", got.body, tc.body)
				}
			} else if !strings.Contains(got.body, tc.body) {
				t.Fatalf("body %s lacks %s", got.body, tc.body)
			}
		})
	}
}

func TestGitLabFieldNames(t *testing.T) {
	_, ts := newTest(t, Options{FieldNames: "gitlab"})
	got := do(t, ts, "GET", "/api/v4/projects/3/error_tracking/settings", TokenMaintainer)
	if !strings.Contains(got.body, `"sentry_external_url":"https://sentry.example.com/demo/legacy-api/"`) {
		t.Fatal(got.body)
	}
	got = do(t, ts, "GET", keys1, TokenMaintainer)
	if !strings.Contains(got.body, `"sentry_dsn":"http://glet_`) || strings.Contains(got.body, "errtracker") {
		t.Fatal(got.body)
	}
}

func TestAutoCreatedKey(t *testing.T) {
	s, ts := newTest(t, Options{})
	if got := do(t, ts, "PUT", "/api/v4/projects/2/error_tracking/settings?active=true&integrated=true", TokenMaintainer); got.status != 200 {
		t.Fatal(got.body)
	}
	if n := s.KeyCount(2); n != 1 {
		t.Fatalf("keys after enabling integrated settings: %d, want 1", n)
	}
	// Saving again with an active key must not add another.
	do(t, ts, "PATCH", "/api/v4/projects/2/error_tracking/settings?active=true", TokenMaintainer)
	if n := s.KeyCount(2); n != 1 {
		t.Fatalf("keys: %d, want 1", n)
	}
	// Deleting the last key does not create one.
	do(t, ts, "DELETE", "/api/v4/projects/2/error_tracking/client_keys/4", TokenMaintainer)
	if n := s.KeyCount(2); n != 0 {
		t.Fatalf("keys after delete: %d", n)
	}
}

func TestSentryValidationChangesNothing(t *testing.T) {
	_, ts := newTest(t, Options{})
	got := do(t, ts, "PATCH", settings1+"?active=true&integrated=false", TokenMaintainer)
	want := `{"message":"Error tracking setting api url is a required field and Error tracking setting token is a required field","status":"error"}`
	if got.status != 200 || got.body != want {
		t.Fatalf("%d %s", got.status, got.body)
	}
	if got := do(t, ts, "GET", settings1, TokenMaintainer); !strings.Contains(got.body, `"integrated":true`) {
		t.Fatal("refused update was stored:", got.body)
	}
}

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

func TestPublicKeysAreUniqueAndWellFormed(t *testing.T) {
	s, ts := newTest(t, Options{})
	re := regexp.MustCompile(`^glet_[0-9a-f]{32}$`)
	for i := 0; i < 50; i++ {
		do(t, ts, "POST", keys1, TokenMaintainer)
	}
	seen := map[string]bool{}
	for _, k := range s.Keys(1) {
		if !re.MatchString(k.PublicKey) || seen[k.PublicKey] {
			t.Fatalf("bad or repeated key %q", k.PublicKey)
		}
		seen[k.PublicKey] = true
	}
}

func TestStatePersists(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	s1, ts1 := newTest(t, Options{StatePath: path})
	do(t, ts1, "POST", keys1, TokenMaintainer)
	do(t, ts1, "DELETE", keys1+"/1", TokenMaintainer)
	want := s1.Keys(1)
	s2, err := New(Options{StatePath: path})
	if err != nil {
		t.Fatal(err)
	}
	got := s2.Keys(1)
	if len(got) != len(want) || got[0] != want[0] || got[len(got)-1] != want[len(want)-1] {
		t.Fatalf("reloaded %v, want %v", got, want)
	}
	if err := os.WriteFile(path, []byte("{half"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := New(Options{StatePath: path}); err == nil || !strings.Contains(err.Error(), "not valid") {
		t.Fatalf("corrupt state: %v", err)
	}
}

func TestFailRate(t *testing.T) {
	_, ts := newTest(t, Options{FailRate: 1, FailSeed: 7})
	seen := map[int]bool{}
	for i := 0; i < 40; i++ {
		got := do(t, ts, "GET", settings1, TokenMaintainer)
		seen[got.status] = true
		if got.status == 429 && got.header.Get("Retry-After") != "1" {
			t.Error("429 without Retry-After")
		}
	}
	for _, code := range []int{500, 502, 503, 429} {
		if !seen[code] {
			t.Errorf("fault %d never injected", code)
		}
	}
}

func TestLatency(t *testing.T) {
	_, ts := newTest(t, Options{Latency: 30 * time.Millisecond})
	start := time.Now()
	do(t, ts, "GET", "/api/v4/version", TokenMaintainer)
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Fatalf("answered in %v despite 30ms latency", d)
	}
}

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

func TestEmptySeed(t *testing.T) {
	_, ts := newTest(t, Options{Seed: "empty"})
	if got := do(t, ts, "GET", "/api/v4/projects", TokenMaintainer); got.status != 200 || got.body != "[]" {
		t.Fatalf("%d %s", got.status, got.body)
	}
	if _, err := New(Options{Seed: "empty", ScaleKeys: 3}); err == nil {
		t.Fatal("scale flags accepted with the empty seed")
	}
	if _, err := New(Options{Seed: "bogus"}); err == nil {
		t.Fatal("unknown seed accepted")
	}
}

// TestEveryEndpointAuthRows checks the rows every endpoint shares:
// unauthenticated 401, non-member 404, Developer 403, read_user 403.
func TestEveryEndpointAuthRows(t *testing.T) {
	endpoints := []struct{ method, path string }{
		{"GET", "/error_tracking/settings"},
		{"PUT", "/error_tracking/settings?active=true&integrated=true"},
		{"PATCH", "/error_tracking/settings?active=true"},
		{"GET", "/error_tracking/client_keys"},
		{"POST", "/error_tracking/client_keys"},
		{"DELETE", "/error_tracking/client_keys/1"},
	}
	s, ts := newTest(t, Options{})
	s.mu.Lock()
	s.st.Tokens["read-user-token"] = Token{ID: 99, UserID: 1, Scopes: []string{"read_user"}}
	s.mu.Unlock()
	for _, e := range endpoints {
		for _, row := range []struct {
			project, token string
			status         int
			body           string
		}{
			{"1", "", 401, `{"message":"401 Unauthorized"}`},
			{"999", "", 401, `{"message":"401 Unauthorized"}`},
			{"6", TokenMaintainer, 404, `{"message":"404 Project Not Found"}`},
			{"private%2Fsecret", TokenMaintainer, 404, `{"message":"404 Project Not Found"}`},
			{"1", TokenDeveloper, 403, `{"message":"403 Forbidden"}`},
			{"1", "read-user-token", 403, `"error":"insufficient_scope"`},
		} {
			got := do(t, ts, e.method, "/api/v4/projects/"+row.project+e.path, row.token)
			if got.status != row.status || !strings.Contains(got.body, row.body) {
				t.Errorf("%s %s as %q: %d %s, want %d %s", e.method, row.project+e.path, row.token, got.status, got.body, row.status, row.body)
			}
			if row.status == 401 && row.token == "" && got.header.Get("Content-Type") != "application/json" {
				t.Error("401 not JSON")
			}
		}
	}
	// /user accepts read_user; the error tracking endpoints do not.
	if got := do(t, ts, "GET", "/api/v4/user", "read-user-token"); got.status != 200 {
		t.Fatalf("/user with read_user: %d", got.status)
	}
}

// TestFeatureFlagOffMasksIntegrated: with integrated error tracking off for
// a project, GET and PATCH answer integrated false whatever is stored.
func TestFeatureFlagOffMasksIntegrated(t *testing.T) {
	s, ts := newTest(t, Options{})
	s.mu.Lock()
	s.st.byID[4].Settings = &Settings{Enabled: true, Integrated: true}
	s.mu.Unlock()
	if got := do(t, ts, "GET", "/api/v4/projects/4/error_tracking/settings", TokenMaintainer); got.status != 200 || !strings.Contains(got.body, `"integrated":false`) {
		t.Fatalf("GET: %d %s", got.status, got.body)
	}
	if got := do(t, ts, "PATCH", "/api/v4/projects/4/error_tracking/settings?active=false&integrated=true", TokenMaintainer); got.status != 200 || !strings.Contains(got.body, `"active":false,`) || !strings.Contains(got.body, `"integrated":false`) {
		t.Fatalf("PATCH: %d %s", got.status, got.body)
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

// Start-up removes the temporary files a killed server of the same state
// file left, and only those: another live server's stay.
func TestStaleTempsOnlyOurs(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, "state.json")
	dead := filepath.Join(dir, tempPattern(state)+"999999999-1")                   // no such process
	live := filepath.Join(dir, tempPattern(state)+strconv.Itoa(os.Getppid())+"-1") // a running process
	other := filepath.Join(dir, tempPattern(filepath.Join(dir, "other.json"))+"999999999-1")
	for _, f := range []string{dead, live, other} {
		os.WriteFile(f, []byte("{}"), 0o600)
	}
	if _, err := New(Options{StatePath: state}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Fatal("a dead server's temporary file was kept")
	}
	for _, f := range []string{live, other} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%s was removed: another server's acknowledged writes would be lost", filepath.Base(f))
		}
	}
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

// Pages of keys are encoded once per state: a change shows at once, and
// the DSNs follow the address each request came to.
func TestKeysPageCacheFollowsStateAndAddress(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	get := func(host string) string {
		req := httptest.NewRequest("GET", "/api/v4/projects/1/error_tracking/client_keys", nil)
		req.Host = host
		req.Header.Set("PRIVATE-TOKEN", TokenMaintainer)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		return rec.Body.String()
	}
	first := get("a.example:80")
	if get("a.example:80") != first || !strings.Contains(first, "@a.example:80/") {
		t.Fatalf("%s", first)
	}
	if other := get("b.example:80"); !strings.Contains(other, "@b.example:80/") || strings.Contains(other, "a.example") {
		t.Fatalf("another address got %s", other)
	}
	req := httptest.NewRequest("POST", "/api/v4/projects/1/error_tracking/client_keys", nil)
	req.Header.Set("PRIVATE-TOKEN", TokenMaintainer)
	s.ServeHTTP(httptest.NewRecorder(), req)
	if after := get("a.example:80"); after == first || !strings.Contains(after, `"id":4`) {
		t.Fatalf("the new key is not listed: %s", after)
	}
}
