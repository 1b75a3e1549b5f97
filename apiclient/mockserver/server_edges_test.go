package mockserver

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"
)

// row is one request and the status and body substring (a regexp when it
// starts with ^) it must produce.
type row struct {
	name, method, path, token string
	extra                     []string
	status                    int
	body                      string
}

// TestSecondPass walks gitlab-api.md §11 row by row.
func TestSecondPass(t *testing.T) {
	_, ts := newTest(t, Options{})
	jsonCT := "application/json"
	rows := []row{
		// Routing and methods
		{"POST settings: catch-all, no auth", "POST", settings1, "", nil, 404, `{"error":"404 Not Found"}`},
		{"DELETE settings", "DELETE", settings1, TokenMaintainer, nil, 404, `{"error":"404 Not Found"}`},
		{"DELETE client_keys", "DELETE", keys1, "", nil, 404, `{"error":"404 Not Found"}`},
		{"GET one key", "GET", keys1 + "/5", TokenMaintainer, nil, 404, `{"error":"404 Not Found"}`},
		{"OPTIONS without a token", "OPTIONS", settings1, "", nil, 401, `401 Unauthorized`},
		{"OPTIONS as a Developer", "OPTIONS", settings1, TokenDeveloper, nil, 403, `403 Forbidden`},
		{"OPTIONS", "OPTIONS", settings1, TokenMaintainer, nil, 204, ``},
		{"HEAD", "HEAD", settings1, TokenMaintainer, nil, 200, ``},
		{"trailing slash", "GET", settings1 + "/", TokenMaintainer, nil, 200, `"active":true`},
		{"repeated slashes", "GET", "/api/v4/projects/1//error_tracking/settings//", TokenMaintainer, nil, 200, `"active":true`},
		{".json suffix", "GET", settings1 + ".json", TokenMaintainer, nil, 200, `"active":true`},
		{".txt suffix", "GET", settings1 + ".txt", TokenMaintainer, nil, 200, `"active":true`},
		{"format=xml", "GET", settings1 + "?format=xml", TokenMaintainer, nil, 406, `{"error":"The requested format 'xml' is not supported."}`},
		{"path in another case", "GET", "/api/v4/projects/DEMO%2FWEB-SHOP/error_tracking/settings", TokenMaintainer, nil, 200, `"active":true`},
		// Content types, before authentication
		{"a body without a type", "PUT", settings1, "", []string{"body", "active=true"}, 415, `{"error":"The provided content-type '' is not supported."}`},
		{"text/plain", "PUT", settings1, "", []string{"Content-Type", "text/plain", "body", "x"}, 415, `{"error":"The provided content-type 'text/plain' is not supported."}`},
		{"image/png", "PATCH", settings1, TokenMaintainer, []string{"Content-Type", "image/png", "body", "x"}, 415, `'image/png'`},
		{"malformed JSON, no token", "PUT", settings1, "", []string{"Content-Type", jsonCT, "body", "{nope"}, 400, `{"error":"\nProblem:\n  message body does not match declared format\nResolution:\n  when specifying application/json as content-type, you must pass valid application/json in the request's body"}`},
		{"JSON with a charset", "PATCH", settings1, TokenMaintainer, []string{"Content-Type", "application/json; charset=utf-8", "body", `{"active":true}`}, 200, `"active":true`},
		{"JSON body wins over query", "PATCH", settings1 + "?active=true", TokenMaintainer, []string{"Content-Type", jsonCT, "body", `{"active":false}`}, 200, `"active":false`},
		{"last of a repeated name", "PATCH", settings1 + "?active=false&active=true", TokenMaintainer, nil, 200, `"active":true`},
		// Parameter validation
		{"PATCH without active", "PATCH", settings1, TokenMaintainer, nil, 400, `{"error":"active is missing, active is empty"}`},
		{"PUT empty body", "PUT", settings1, TokenMaintainer, nil, 400, `{"error":"active is missing, active is empty, integrated is missing"}`},
		{"JSON null active", "PATCH", settings1, TokenMaintainer, []string{"Content-Type", jsonCT, "body", `{"active":null}`}, 400, `{"error":"active is empty"}`},
		{"active[]", "PATCH", settings1 + "?active[]=true", TokenMaintainer, nil, 400, `{"error":"active is invalid"}`},
		{"JSON 0 is false", "PATCH", settings1, TokenMaintainer, []string{"Content-Type", jsonCT, "body", `{"active":0}`}, 200, `"active":false`},
		{"JSON 1 is true", "PATCH", settings1, TokenMaintainer, []string{"Content-Type", jsonCT, "body", `{"active":1}`}, 200, `"active":true`},
		{"JSON 1.0 is invalid", "PATCH", settings1, TokenMaintainer, []string{"Content-Type", jsonCT, "body", `{"active":1.0}`}, 400, `{"error":"active is invalid"}`},
		{"off", "PATCH", settings1 + "?active=off", TokenMaintainer, nil, 200, `"active":false`},
		{"TRUE", "PATCH", settings1 + "?active=TRUE", TokenMaintainer, nil, 200, `"active":true`},
		{"' true' is invalid", "PATCH", settings1 + "?active=%20true", TokenMaintainer, nil, 400, `{"error":"active is invalid"}`},
		{"PUT integrated empty", "PUT", settings1 + "?active=true&integrated=", TokenMaintainer, nil, 200, `{"message":"Error tracking setting integrated is not included in the list","status":"error"}`},
		{"PUT integrated JSON null", "PUT", settings1, TokenMaintainer, []string{"Content-Type", jsonCT, "body", `{"active":true,"integrated":null}`}, 200, `"status":"error"`},
		{"PATCH integrated empty is absent", "PATCH", settings1 + "?active=true&integrated=", TokenMaintainer, nil, 200, `"integrated":true`},
		// Pagination of client keys
		{"per_page=0", "GET", keys1 + "?per_page=0", TokenMaintainer, nil, 500, `{"message":"500 Internal Server Error"}`},
		// Authentication
		{"sudo parameter", "GET", settings1 + "?sudo=1", TokenMaintainer, nil, 403, `{"message":"403 Forbidden - Must be admin to use sudo"}`},
		{"empty Sudo header, before the project", "GET", "/api/v4/projects/999/error_tracking/settings", TokenMaintainer, []string{"Sudo", ""}, 403, `Must be admin to use sudo`},
		{"query token wins over the header", "GET", settings1 + "?private_token=" + TokenDeveloper, TokenMaintainer, nil, 403, `403 Forbidden`},
		{"access_token in the query", "GET", settings1 + "?access_token=" + TokenMaintainer, "", nil, 200, `"active":true`},
		{"bearer_token in the query", "GET", settings1 + "?bearer_token=" + TokenMaintainer, "", nil, 200, `"active":true`},
		{"private_token in a form body", "PATCH", settings1, "", []string{"Content-Type", "application/x-www-form-urlencoded", "body", "active=true&private_token=" + TokenMaintainer}, 200, `"active":true`},
		{"scope of insufficient_scope", "POST", keys1, TokenReadOnly, nil, 403, `"scope":"api read_api"`},
	}
	for _, tc := range rows {
		t.Run(tc.name, func(t *testing.T) {
			got := do(t, ts, tc.method, tc.path, tc.token, tc.extra...)
			if got.status != tc.status {
				t.Fatalf("status %d, want %d; body %s", got.status, tc.status, got.body)
			}
			if tc.body != "" && !strings.Contains(got.body, tc.body) {
				t.Fatalf("body %s lacks %s", got.body, tc.body)
			}
		})
	}
	if r := do(t, ts, "OPTIONS", settings1, TokenMaintainer); r.header.Get("Allow") != "OPTIONS, GET, PATCH, PUT, HEAD" {
		t.Fatalf("Allow: %q", r.header.Get("Allow"))
	}
	if r := do(t, ts, "HEAD", settings1, TokenMaintainer); r.body != "" {
		t.Fatalf("HEAD body %q", r.body)
	}
}

// .json on a DELETE deletes the key.
func TestFormatSuffixOnDelete(t *testing.T) {
	s, ts := newTest(t, Options{})
	if r := do(t, ts, "DELETE", keys1+"/2.json", TokenMaintainer); r.status != 200 || s.KeyCount(1) != 1 {
		t.Fatalf("%d %s", r.status, r.body)
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

// TestReleases walks §12: a route a release lacks is the catch-all 404
// before authentication; the settings and DSNs change with the release.
func TestReleases(t *testing.T) {
	type probe struct {
		method, path string
		status       int
		body         string
	}
	token := "?private_token=" + TokenMaintainer
	cases := []struct {
		version string
		probes  []probe
	}{
		{"12.6", []probe{{"GET", settings1, 404, `{"error":"404 Not Found"}`}}},
		{"12.7", []probe{{"GET", settings1 + token, 200, `"active":true`}, {"PATCH", settings1 + "?active=true", 404, `{"error":"404 Not Found"}`}}},
		{"13.0", []probe{
			{"PATCH", settings1 + token + "&active=false&integrated=true", 200, `{"active":false,"project_name":null,"errtracker_external_url":null,"api_url":null}`},
			{"GET", keys1, 404, `{"error":"404 Not Found"}`},
			{"PUT", settings1, 404, `{"error":"404 Not Found"}`},
			{"GET", "/api/v4/metadata", 404, `{"error":"404 Not Found"}`},
			{"GET", "/api/v4/version" + token, 200, `"version":"13.0.0"`},
		}},
		{"14.2", []probe{{"GET", settings1 + token, 200, `"integrated":true`}, {"POST", keys1, 404, `{"error":"404 Not Found"}`}}},
		{"14.3", []probe{{"GET", keys1 + token, 200, `/api/v4/error_tracking/collector/1"`}}},
		{"14.9", []probe{{"PATCH", "/api/v4/projects/2/error_tracking/settings" + token + "&active=nonsense", 404, `404 Error Tracking Setting Not Found`}}},
		{"15.4", []probe{{"PUT", settings1 + "?active=true&integrated=true", 404, `{"error":"404 Not Found"}`}, {"GET", "/api/v4/personal_access_tokens/self", 404, `{"error":"404 Not Found"}`}, {"GET", "/api/v4/metadata" + token, 200, `"version":"15.4.0"`}}},
		{"15.10", []probe{{"PUT", settings1 + token + "&active=true&integrated=true", 200, `"active":true`}, {"PATCH", "/api/v4/projects/2/error_tracking/settings" + token + "&active=nonsense", 400, `active is invalid`}}},
		{"16.0", []probe{{"GET", keys1 + token, 200, `/api/v4/error_tracking/collector/1"`}, {"POST", "/api/v4/personal_access_tokens/self/rotate", 404, `{"error":"404 Not Found"}`}}},
		{"16.1", []probe{{"GET", keys1 + token, 200, `/errortracking/api/v1/projects/1"`}}},
	}
	for _, tc := range cases {
		_, ts := newTest(t, Options{GitLabVersion: tc.version})
		for _, p := range tc.probes {
			r := do(t, ts, p.method, p.path, "")
			if r.status != p.status || !strings.Contains(r.body, p.body) {
				t.Errorf("%s %s %s: %d %s, want %d %s", tc.version, p.method, p.path, r.status, r.body, p.status, p.body)
			}
		}
	}
	if _, err := New(Options{GitLabVersion: "fifteen"}); err == nil {
		t.Fatal("a malformed version accepted")
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

// TLS: HTTPS with HTTP/2, a CA file the client can trust, removed on close.
func TestTLS(t *testing.T) {
	s, err := New(Options{TLS: true})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.URL, "https://127.0.0.1:") || r.CAFile == "" {
		t.Fatal(r.URL, r.CAFile)
	}
	client := tlsClient(t, r.CAFile)
	resp, err := client.Get(r.URL + "/api/v4/projects/1/error_tracking/client_keys?private_token=" + TokenMaintainer)
	if err != nil {
		t.Fatal(err)
	}
	var keys []map[string]any
	json.NewDecoder(resp.Body).Decode(&keys)
	resp.Body.Close()
	if resp.ProtoMajor != 2 || len(keys) != 2 || !strings.HasPrefix(keys[0]["errtracker_dsn"].(string), "https://glet_") {
		t.Fatalf("%s %v", resp.Proto, keys)
	}
	ca := r.CAFile
	r.Close(t.Context())
	if _, err := os.Stat(ca); err == nil {
		t.Fatal("the CA file outlived the server")
	}
}

// --log: one line per request, without tokens.
func TestLog(t *testing.T) {
	var log strings.Builder
	_, ts := newTest(t, Options{Log: &log})
	do(t, ts, "GET", settings1+"?private_token="+TokenMaintainer, "")
	line := log.String()
	for _, want := range []string{"GET", "/api/v4/projects/1/error_tracking/settings?private_token=%5Bredacted%5D", " 200 ", "HTTP/1.1"} {
		if !strings.Contains(line, want) {
			t.Fatalf("log %q lacks %q", line, want)
		}
	}
	if strings.Contains(line, TokenMaintainer) {
		t.Fatal("token logged")
	}
}

// §13: the project CI/CD variables API.
func TestVariables(t *testing.T) {
	s, ts := newTest(t, Options{})
	tok := TokenMaintainer
	vars := "/api/v4/projects/1/variables"
	form := "application/x-www-form-urlencoded"
	dsn := "http://glet_0123456789abcdef0123456789abcdef@127.0.0.1:1/errortracking/api/v1/projects/1"
	steps := []row{
		{"seeded SENTRY_DSN holds key 1's DSN", "GET", vars + "/SENTRY_DSN", tok, nil, 200, `"value":"http://glet_`},
		{"create", "POST", vars, tok, []string{"Content-Type", form, "body", "key=SENTRY_DSN&value=" + url.QueryEscape(dsn) + "&environment_scope=production&masked=true&raw=true"}, 201, `"environment_scope":"production"`},
		{"same key and scope", "POST", vars, tok, []string{"Content-Type", form, "body", "key=SENTRY_DSN&value=x&environment_scope=production"}, 400, `{"message":{"key":["(SENTRY_DSN) has already been taken"]}}`},
		{"ambiguous", "GET", vars + "/SENTRY_DSN", tok, nil, 409, `{"message":"There are multiple variables with provided parameters. Please use 'filter[environment_scope]'"}`},
		{"filtered", "GET", vars + "/SENTRY_DSN?filter%5Benvironment_scope%5D=production", tok, nil, 200, `"masked":true`},
		{"update keeps attributes", "PUT", vars + "/SENTRY_DSN?filter%5Benvironment_scope%5D=production", tok, []string{"Content-Type", "application/json", "body", `{"value":"` + dsn + `2"}`}, 200, `"protected":false,"masked":true,"raw":true`},
		{"bad masked value", "POST", vars, tok, []string{"Content-Type", form, "body", "key=SHORT&value=abc&masked=true"}, 400, `{"message":{"value":["is invalid"]}}`},
		{"bad key", "POST", vars, tok, []string{"Content-Type", form, "body", "key=no-dash&value=x"}, 400, `"key"`},
		{"missing", "GET", vars + "/NOPE", tok, nil, 404, `{"message":"404 Variable Not Found"}`},
		{"developer", "GET", vars, TokenDeveloper, nil, 403, `403 Forbidden`},
		{"read_api cannot write", "POST", vars, TokenReadOnly, []string{"Content-Type", form, "body", "key=K&value=v"}, 403, `insufficient_scope`},
		{"hidden", "POST", vars, tok, []string{"Content-Type", form, "body", "key=HIDDEN&value=secret-value-123&masked_and_hidden=true"}, 201, `"value":null`},
		{"list", "GET", vars, tok, nil, 200, `"key":"HIDDEN"`},
		{"delete", "DELETE", vars + "/SENTRY_DSN?filter%5Benvironment_scope%5D=production", tok, nil, 204, ``},
	}
	for _, st := range steps {
		r := do(t, ts, st.method, st.path, st.token, st.extra...)
		if r.status != st.status || !strings.Contains(r.body, st.body) {
			t.Fatalf("%s: %d %s, want %d %s", st.name, r.status, r.body, st.status, st.body)
		}
	}
	if n := len(s.Variables(1)); n != 2 {
		t.Fatalf("%d variables left", n)
	}
}

// §13: the ingestion endpoint takes events for an active key of the
// project and refuses the others.
func TestIngestion(t *testing.T) {
	s, ts := newTest(t, Options{})
	key := s.Keys(1)[0].PublicKey
	envelope := `{"event_id":"0123456789abcdef0123456789abcdef","sent_at":"2026-11-23T08:00:00Z"}` + "\n" +
		`{"type":"event"}` + "\n" + `{"event_id":"0123456789abcdef0123456789abcdef","level":"error","platform":"other","message":{"formatted":"errtrack test"}}` + "\n"
	post := func(path, auth, body string) reply {
		req, _ := http.NewRequest("POST", ts.URL+path, strings.NewReader(body))
		if auth != "" {
			req.Header.Set("X-Sentry-Auth", "Sentry sentry_key="+auth+", sentry_version=7")
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 512)
		n, _ := resp.Body.Read(buf)
		b.Write(buf[:n])
		return reply{resp.StatusCode, resp.Header, b.String()}
	}
	path := "/errortracking/api/v1/projects/api/1/envelope"
	if r := post(path, key, envelope); r.status != 200 || !strings.Contains(r.body, "0123456789abcdef") {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if r := post(path+"?sentry_key="+key, "", envelope); r.status != 200 {
		t.Fatalf("?sentry_key: %d", r.status)
	}
	for name, tc := range map[string][2]string{
		"unknown key":         {path, "glet_00000000000000000000000000000000"},
		"another project":     {"/errortracking/api/v1/projects/api/5/envelope", key},
		"inactive project's?": {"/errortracking/api/v1/projects/api/2/envelope", key},
	} {
		if r := post(tc[0], tc[1], envelope); r.status != 401 {
			t.Errorf("%s: %d", name, r.status)
		}
	}
	if r := post(path, key, "garbage"); r.status != 400 {
		t.Errorf("garbage: %d", r.status)
	}
	do(t, ts, "DELETE", keys1+"/1", TokenMaintainer)
	if r := post(path, key, envelope); r.status != 401 {
		t.Errorf("deleted key: %d", r.status)
	}
	if n := s.Envelopes(1); n != 2 {
		t.Fatalf("%d envelopes counted", n)
	}
}

// §13: rotating the token in use: a new token, the old one revoked; a
// rotated token used again revokes the whole family.
func TestTokenRotation(t *testing.T) {
	s, ts := newTest(t, Options{})
	rot := "/api/v4/personal_access_tokens/self/rotate"
	exp := time.Now().UTC().AddDate(0, 0, 30).Format(time.DateOnly)
	r := do(t, ts, "POST", rot, TokenMaintainer, "Content-Type", "application/json", "body", `{"expires_at":"`+exp+`"}`)
	var got struct {
		Token     string   `json:"token"`
		ExpiresAt string   `json:"expires_at"`
		Scopes    []string `json:"scopes"`
	}
	if json.Unmarshal([]byte(r.body), &got); r.status != 200 || got.Token == "" || got.ExpiresAt != exp || len(got.Scopes) != 1 || got.Scopes[0] != "api" {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if r := do(t, ts, "GET", "/api/v4/user", TokenMaintainer); r.status != 401 || !strings.Contains(r.body, "revoked") {
		t.Fatalf("old token: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "GET", "/api/v4/user", got.Token); r.status != 200 {
		t.Fatalf("new token: %d", r.status)
	}
	// A week by default.
	r2 := do(t, ts, "POST", rot, got.Token)
	var second struct {
		Token     string `json:"token"`
		ExpiresAt string `json:"expires_at"`
	}
	json.Unmarshal([]byte(r2.body), &second)
	if second.ExpiresAt != time.Now().UTC().AddDate(0, 0, 7).Format(time.DateOnly) {
		t.Fatalf("default expiry %s", second.ExpiresAt)
	}
	// Reuse: the first token rotated again revokes its successors.
	if r := do(t, ts, "POST", rot, TokenMaintainer); r.status != 401 {
		t.Fatalf("reuse: %d", r.status)
	}
	for _, tok := range []string{got.Token, second.Token} {
		if tt, _ := s.Token(tok); !tt.Revoked {
			t.Fatalf("%s survived the reuse", tok)
		}
	}
	if r := do(t, ts, "POST", rot, TokenReadOnly); r.status != 403 {
		t.Fatalf("read_api: %d", r.status)
	}
	if r := do(t, ts, "POST", rot, TokenExpiring, "Content-Type", "application/json", "body", `{"expires_at":"2099-01-01"}`); r.status != 400 {
		t.Fatalf("beyond a year: %d", r.status)
	}
}

// tlsClient trusts only the mock server's own certificate, as a user passing
// --ca-file would.
func tlsClient(t *testing.T, caFile string) *http.Client {
	t.Helper()
	pem, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		t.Fatalf("no certificate in %s", caFile)
	}
	return &http.Client{Transport: &http.Transport{
		TLSClientConfig:   &tls.Config{RootCAs: pool},
		ForceAttemptHTTP2: true,
	}, Timeout: 10 * time.Second}
}
