package mockserver

import (
	"encoding/json"
	"net/http"
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

// A group's CI/CD variables are listed, read, created, updated and deleted
// as a project's, by an Owner of the group only; their seeded DSNs
// resolve to the project's key they name.
func TestGroupVariables(t *testing.T) {
	_, ts := newTest(t, Options{ScaleGroup: 1})
	const base = "/api/v4/groups/fleet/variables"
	json := func(s string) []string { return []string{"Content-Type", "application/json", "body", s} }
	if r := do(t, ts, "GET", base, TokenMaintainer); r.status != 200 || !strings.Contains(r.body, `"FLEET_SENTRY_DSN"`) || !strings.Contains(r.body, "/errortracking/api/v1/projects/2001") {
		t.Fatalf("list: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "POST", base, TokenMaintainer, json(`{"key":"RELEASE","value":"1.2.3","environment_scope":"production"}`)...); r.status != http.StatusCreated {
		t.Fatalf("create: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "POST", base, TokenMaintainer, json(`{"key":"RELEASE","value":"x","environment_scope":"production"}`)...); r.status != 400 || !strings.Contains(r.body, "has already been taken") {
		t.Fatalf("duplicate: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "PUT", base+"/RELEASE", TokenMaintainer, json(`{"value":"1.2.4"}`)...); r.status != 200 || !strings.Contains(r.body, `"1.2.4"`) {
		t.Fatalf("update: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "GET", base+"/RELEASE", TokenMaintainer); r.status != 200 || !strings.Contains(r.body, `"1.2.4"`) {
		t.Fatalf("get: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "DELETE", base+"/RELEASE", TokenMaintainer); r.status != http.StatusNoContent {
		t.Fatalf("delete: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "GET", base+"/RELEASE", TokenMaintainer); r.status != 404 {
		t.Fatalf("after delete: %d %s", r.status, r.body)
	}
	// The demo user is no Owner of demo (a Maintainer of projects in it):
	// every call is refused and nothing changes.
	for _, m := range []string{"GET", "POST"} {
		if r := do(t, ts, m, "/api/v4/groups/demo/variables", TokenMaintainer, json(`{"key":"K","value":"v"}`)...); r.status != 403 {
			t.Fatalf("%s as a non-Owner of the group: %d %s", m, r.status, r.body)
		}
	}
	if r := do(t, ts, "GET", "/api/v4/groups/nope/variables", TokenMaintainer); r.status != 404 {
		t.Fatalf("missing group: %d", r.status)
	}
}

// V1: a group's variables need the Owner role on the group (GroupPolicy
// gives admin_cicd_variables to Owners), a membership of the group or of
// an ancestor, whatever the user's roles in its projects.
func TestGroupVariablesNeedTheGroupOwner(t *testing.T) {
	_, ts := newTest(t, Options{ScaleGroup: 1})
	for _, tc := range []struct {
		group, token string
		want         int
	}{
		{"ops", TokenMaintainer, 200},           // Owner of ops
		{"fleet", TokenMaintainer, 200},         // Owner of fleet
		{"demo%2Fmobile", TokenMaintainer, 403}, // a Developer of the group, a Maintainer of two of its projects
		{"demo", TokenMaintainer, 403},          // no membership; Maintainer of projects in it
		{"ops", TokenDeveloper, 403},            // a Developer of ops
		{"partner", TokenMaintainer, 403},       // visible through shared projects only
	} {
		if r := do(t, ts, "GET", "/api/v4/groups/"+tc.group+"/variables", tc.token); r.status != tc.want {
			t.Errorf("%s as %s: %d %s", tc.group, tc.token, r.status, r.body)
		}
	}
}

// V2: GroupVariable Not Found; V3: a PUT without filter on a key with
// several scopes updates one of them (no 409, kept for compatibility),
// while GET and DELETE still answer 409.
func TestGroupVariableNotFoundAndScopes(t *testing.T) {
	_, ts := newTest(t, Options{})
	const base = "/api/v4/groups/ops/variables"
	js := func(s string) []string { return []string{"Content-Type", "application/json", "body", s} }
	if r := do(t, ts, "GET", base+"/NOPE", TokenMaintainer); r.status != 404 || r.body != `{"message":"404 GroupVariable Not Found"}` {
		t.Errorf("missing: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "GET", "/api/v4/projects/10/variables/NOPE", TokenMaintainer); r.body != `{"message":"404 Variable Not Found"}` {
		t.Errorf("a project's missing: %s", r.body)
	}
	for _, scope := range []string{"staging", "review/*"} {
		if r := do(t, ts, "POST", base, TokenMaintainer, js(`{"key":"RELEASE","value":"1","environment_scope":"`+scope+`"}`)...); r.status != 201 {
			t.Fatalf("create %s: %d %s", scope, r.status, r.body)
		}
	}
	if r := do(t, ts, "PUT", base+"/RELEASE", TokenMaintainer, js(`{"value":"2"}`)...); r.status != 200 || !strings.Contains(r.body, `"value":"2"`) {
		t.Errorf("PUT without filter: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "GET", base+"/RELEASE", TokenMaintainer); r.status != 409 {
		t.Errorf("GET without filter: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "PUT", "/api/v4/projects/10/variables/SENTRY_DSN", TokenMaintainer, js(`{"value":"x"}`)...); r.status == 409 {
		t.Errorf("a project's single variable: %d", r.status)
	}
}

// V4: Entities::Ci::Variable by release: hidden from 17.4, description from
// 16.2, in the entity's order; a hidden value is null; masked_and_hidden is
// a parameter only from 17.4.
func TestVariableFieldsByRelease(t *testing.T) {
	for _, tc := range []struct {
		version        string
		hidden, desc   bool
		hiddenHonoured bool
	}{
		{"15.4", false, false, false},
		{"16.2", false, true, false},
		{"17.4", true, true, true},
		{"17.5", true, true, true},
	} {
		_, ts := newTest(t, Options{GitLabVersion: tc.version})
		r := do(t, ts, "GET", "/api/v4/projects/10/variables", TokenMaintainer)
		var vars []map[string]any
		if err := json.Unmarshal([]byte(r.body), &vars); err != nil {
			t.Fatalf("%s: %v %s", tc.version, err, r.body)
		}
		_, hasHidden := vars[0]["hidden"]
		_, hasDesc := vars[0]["description"]
		if hasHidden != tc.hidden || hasDesc != tc.desc || (vars[0]["value"] == nil) != tc.hidden {
			t.Errorf("%s: %v", tc.version, vars[0])
		}
		if !strings.HasPrefix(r.body, `[{"variable_type":"env_var","key":"SENTRY_DSN","value":`) {
			t.Errorf("%s: order %.80s", tc.version, r.body)
		}
		created := do(t, ts, "POST", "/api/v4/projects/10/variables", TokenMaintainer, "Content-Type", "application/json",
			"body", `{"key":"NEW_DSN","value":"https://k@h/p/12345678","masked_and_hidden":true}`)
		if created.status != 201 || strings.Contains(created.body, `"value":null`) != tc.hiddenHonoured {
			t.Errorf("%s: masked_and_hidden: %d %s", tc.version, created.status, created.body)
		}
	}
}
