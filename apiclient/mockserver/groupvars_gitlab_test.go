package mockserver

import (
	"encoding/json"
	"strings"
	"testing"
)

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
