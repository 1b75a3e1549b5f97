package mockserver

import (
	"strings"
	"testing"
	"time"
)

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

func TestLatency(t *testing.T) {
	_, ts := newTest(t, Options{Latency: 30 * time.Millisecond})
	start := time.Now()
	do(t, ts, "GET", "/api/v4/version", TokenMaintainer)
	if d := time.Since(start); d < 30*time.Millisecond {
		t.Fatalf("answered in %v despite 30ms latency", d)
	}
}
