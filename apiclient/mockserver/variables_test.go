package mockserver

import (
	"encoding/json"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
)

const vars1 = "/api/v4/projects/1/variables"

func variableValue(t *testing.T, r reply) string {
	t.Helper()
	var v struct{ Value string }
	if r.status != 200 || json.Unmarshal([]byte(r.body), &v) != nil {
		t.Fatalf("%d %s", r.status, r.body)
	}
	return v.Value
}

// The seeded SENTRY_DSN holds key 1's DSN as served, and still does once
// key 1 is deleted: a variable holding an old DSN is what a rotation that
// skipped it leaves.
func TestSeededDSNOutlivesItsKey(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.json")
	s, ts := newTest(t, Options{StatePath: state})
	r := do(t, ts, "GET", keys1, TokenMaintainer)
	var keys []struct {
		DSN string `json:"errtracker_dsn"`
	}
	json.Unmarshal([]byte(r.body), &keys)
	if got := variableValue(t, do(t, ts, "GET", vars1+"/SENTRY_DSN", TokenMaintainer)); got != keys[0].DSN {
		t.Fatalf("variable %s, key 1 %s", got, keys[0].DSN)
	}
	do(t, ts, "DELETE", keys1+"/1", TokenMaintainer)
	if got := variableValue(t, do(t, ts, "GET", vars1+"/SENTRY_DSN", TokenMaintainer)); got != keys[0].DSN {
		t.Fatalf("after the key's deletion: %s, want %s", got, keys[0].DSN)
	}
	if v := s.Variables(1)[0].Value; v != "{{dsn:1}}" {
		t.Fatalf("stored %q: the variable itself was changed", v)
	}
	// Another run on the same state, reached at another address.
	_, ts2 := newTest(t, Options{StatePath: state})
	want := strings.Replace(keys[0].DSN, ts.Listener.Addr().String(), ts2.Listener.Addr().String(), 1)
	if got := variableValue(t, do(t, ts2, "GET", vars1+"/SENTRY_DSN", TokenMaintainer)); got != want {
		t.Fatalf("after a restart: %s, want %s", got, want)
	}
}

// Masking rules apply to the value as served: the seeded DSN may be
// masked without raw.
func TestSeededDSNMaskedWithoutRaw(t *testing.T) {
	_, ts := newTest(t, Options{})
	r := do(t, ts, "PUT", vars1+"/SENTRY_DSN?raw=false", TokenMaintainer)
	if got := variableValue(t, r); !strings.HasPrefix(got, "http://glet_") || !strings.Contains(r.body, `"raw":false`) {
		t.Fatal(r.body)
	}
}

// PUT cannot give a variable the key and scope of another.
func TestVariableScopeTaken(t *testing.T) {
	s, ts := newTest(t, Options{})
	do(t, ts, "POST", vars1+"?key=SENTRY_DSN&value=abcdefgh&environment_scope=production", TokenMaintainer)
	r := do(t, ts, "PUT", vars1+"/SENTRY_DSN?filter%5Benvironment_scope%5D=production&environment_scope=*&value=changed1", TokenMaintainer)
	if r.status != 400 || r.body != `{"message":{"key":["(SENTRY_DSN) has already been taken"]}}` {
		t.Fatalf("%d %s", r.status, r.body)
	}
	for _, v := range s.Variables(1) {
		if v.Value == "changed1" {
			t.Fatal("the refused update was stored")
		}
	}
	if r := do(t, ts, "PUT", vars1+"/SENTRY_DSN?filter%5Benvironment_scope%5D=production&environment_scope=staging", TokenMaintainer); r.status != 200 || !strings.Contains(r.body, `"environment_scope":"staging"`) {
		t.Fatalf("a free scope: %d %s", r.status, r.body)
	}
}

// The model's key and value errors, all of them at once.
func TestVariableModelErrors(t *testing.T) {
	_, ts := newTest(t, Options{})
	form := "application/x-www-form-urlencoded"
	for _, tc := range []struct{ body, want string }{
		{"key=&value=x", `{"message":{"key":["can't be blank","can contain only letters, digits and '_'."]}}`},
		{"key=" + strings.Repeat("A", 256) + "&value=x", `{"message":{"key":["is too long (maximum is 255 characters)"]}}`},
		{"key=no-dash&value=abc&masked=true", `{"message":{"key":["can contain only letters, digits and '_'."],"value":["is invalid"]}}`},
		{"value=x", `{"error":"key is missing"}`},
		{"", `{"error":"key is missing, value is missing"}`},
	} {
		r := do(t, ts, "POST", vars1, TokenMaintainer, "Content-Type", form, "body", tc.body)
		if r.status != 400 || r.body != tc.want {
			t.Errorf("%.40s: %d %s, want %s", tc.body, r.status, r.body, tc.want)
		}
	}
}

// Variables are kept in --state.
func TestVariablesPersist(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state.json")
	_, ts := newTest(t, Options{StatePath: state})
	if r := do(t, ts, "POST", vars1+"?key=DEPLOY_DSN&value=kept-value-1&masked=true", TokenMaintainer); r.status != 201 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	do(t, ts, "DELETE", vars1+"/SENTRY_DSN", TokenMaintainer)
	_, ts2 := newTest(t, Options{StatePath: state})
	if got := variableValue(t, do(t, ts2, "GET", vars1+"/DEPLOY_DSN", TokenMaintainer)); got != "kept-value-1" {
		t.Fatal(got)
	}
	if r := do(t, ts2, "GET", vars1+"/SENTRY_DSN", TokenMaintainer); r.status != 404 {
		t.Fatalf("a deleted variable came back: %d", r.status)
	}
}

// masked_and_hidden is a creation attribute: an update cannot hide a
// variable whose value could be read before.
func TestHiddenOnlyOnCreation(t *testing.T) {
	_, ts := newTest(t, Options{})
	r := do(t, ts, "PUT", vars1+"/SENTRY_DSN?masked_and_hidden=true", TokenMaintainer)
	if r.status != 200 || !strings.Contains(r.body, `"hidden":false`) || strings.Contains(r.body, `"value":null`) {
		t.Fatalf("%d %s", r.status, r.body)
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
