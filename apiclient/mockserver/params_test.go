package mockserver

import (
	"strings"
	"testing"
)

// Grape's formatter: a JSON body that is no object is parsed and ignored,
// one with anything after its value is malformed; only writes read a body,
// and a body of blanks is a body.
func TestBodiesAsGrapeReadsThem(t *testing.T) {
	_, ts := newTest(t, Options{})
	js := "application/json"
	for _, tc := range []row{
		{"a JSON array", "PATCH", settings1, TokenMaintainer, []string{"Content-Type", js, "body", `[1]`}, 400, `{"error":"active is missing, active is empty"}`},
		{"JSON null", "PATCH", settings1, TokenMaintainer, []string{"Content-Type", js, "body", `null`}, 400, `{"error":"active is missing, active is empty"}`},
		{"a JSON string, query kept", "PATCH", settings1 + "?active=false", TokenMaintainer, []string{"Content-Type", js, "body", `"x"`}, 200, `"active":false`},
		{"trailing garbage", "PATCH", settings1, "", []string{"Content-Type", js, "body", `{"active":true} x`}, 400, `message body does not match declared format`},
		{"two objects", "PATCH", settings1, "", []string{"Content-Type", js, "body", `{"active":true}{}`}, 400, `message body does not match declared format`},
		{"blanks as JSON", "PATCH", settings1, "", []string{"Content-Type", js, "body", "  "}, 400, `message body does not match declared format`},
		{"blanks without a type", "PATCH", settings1, "", []string{"body", "  "}, 415, `{"error":"The provided content-type '' is not supported."}`},
		{"a GET's body is not read", "GET", settings1, TokenMaintainer, []string{"Content-Type", "text/plain", "body", "x"}, 200, `"integrated":true`},
		{"access_token in a form body", "PATCH", settings1, "", []string{"Content-Type", "application/x-www-form-urlencoded", "body", "active=true&access_token=" + TokenMaintainer}, 200, `"active":true`},
		{"bearer_token in a JSON body", "PATCH", settings1, "", []string{"Content-Type", js, "body", `{"active":true,"bearer_token":"` + TokenMaintainer + `"}`}, 200, `"active":true`},
	} {
		r := do(t, ts, tc.method, tc.path, tc.token, tc.extra...)
		if r.status != tc.status || !strings.Contains(r.body, tc.body) {
			t.Errorf("%s: %d %s, want %d %s", tc.name, r.status, r.body, tc.status, tc.body)
		}
	}
}
