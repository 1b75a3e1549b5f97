package mockserver

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
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

// .json on a DELETE deletes the key.
func TestFormatSuffixOnDelete(t *testing.T) {
	s, ts := newTest(t, Options{})
	if r := do(t, ts, "DELETE", keys1+"/2.json", TokenMaintainer); r.status != 200 || s.KeyCount(1) != 1 {
		t.Fatalf("%d %s", r.status, r.body)
	}
}

// §11's settings side effects: a PATCH that changes nothing creates no key;
// one that turns settings enabled and integrated does.
func TestKeyCreatedOnlyOnAChange(t *testing.T) {
	s, ts := newTest(t, Options{})
	do(t, ts, "DELETE", keys1+"/1", TokenMaintainer)
	do(t, ts, "DELETE", keys1+"/2", TokenMaintainer)
	do(t, ts, "PATCH", settings1+"?active=true", TokenMaintainer) // already enabled and integrated
	if n := s.KeyCount(1); n != 0 {
		t.Fatalf("a no-op PATCH created %d keys", n)
	}
	do(t, ts, "PATCH", settings1+"?active=false", TokenMaintainer)
	do(t, ts, "PATCH", settings1+"?active=true", TokenMaintainer)
	if n := s.KeyCount(1); n != 1 {
		t.Fatalf("enabling created %d keys", n)
	}
	// integrated=true on a Sentry project keeps api_url and makes a key.
	r := do(t, ts, "PATCH", "/api/v4/projects/3/error_tracking/settings?active=true&integrated=true", TokenMaintainer)
	if !strings.Contains(r.body, `"api_url":"https://sentry.example.com/api/0/projects/demo/legacy-api/"`) || !strings.Contains(r.body, `"integrated":true`) || s.KeyCount(3) != 1 {
		t.Fatalf("%s, %d keys", r.body, s.KeyCount(3))
	}
}

// The collector DSN writes the port only when it is not the default.
func TestLegacyDSN(t *testing.T) {
	s, _ := New(Options{GitLabVersion: "15.0", DSNHost: "gitlab.example.com:80"})
	r, _ := http.NewRequest("GET", "/", nil)
	p := s.st.byID[1]
	if got := s.dsn(r, p, p.Keys[0]); got != "http://"+p.Keys[0].PublicKey+"@gitlab.example.com/api/v4/error_tracking/collector/1" {
		t.Fatal(got)
	}
	s, _ = New(Options{DSNHost: "errors.example.com"})
	if got := s.dsn(r, p, p.Keys[0]); !strings.HasSuffix(got, "@errors.example.com:80/errortracking/api/v1/projects/1") {
		t.Fatal(got)
	}
}

// --integrated-error-tracking=false: the self-managed default.
func TestIntegratedFlagOffInstanceWide(t *testing.T) {
	s, ts := newTest(t, Options{NoIntegratedErrorTracking: true})
	tok := "?private_token=" + TokenMaintainer
	if r := do(t, ts, "PUT", "/api/v4/projects/2/error_tracking/settings"+tok+"&active=true&integrated=true", ""); r.status != 404 || r.body != `{"message":"404 Not Found"}` {
		t.Fatalf("PUT: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "GET", settings1+tok, ""); !strings.Contains(r.body, `"integrated":false`) {
		t.Fatalf("GET: %s", r.body)
	}
	if r := do(t, ts, "PATCH", "/api/v4/projects/5/error_tracking/settings"+tok+"&active=true&integrated=true", ""); r.status != 200 || !strings.Contains(r.body, `"integrated":false`) {
		t.Fatalf("PATCH: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "POST", keys1+tok, ""); r.status != 201 {
		t.Fatalf("keys still work: %d", r.status)
	}
	_ = s
}

// A server behind another's TLS listener issues https DSNs.
func TestDSNSchemeOfTheRequest(t *testing.T) {
	s, _ := New(Options{})
	ts := httptest.NewTLSServer(s)
	defer ts.Close()
	r := do(t, ts, "GET", keys1, TokenMaintainer)
	if !strings.Contains(r.body, `"errtracker_dsn":"https://glet_`) {
		t.Fatal(r.body)
	}
}
