package mockserver

import (
	"encoding/json"
	"strings"
	"testing"
)

// ids reads the ids of a JSON list of projects, in order.
func ids(t *testing.T, body string) []int64 {
	t.Helper()
	var list []map[string]any
	if err := json.Unmarshal([]byte(body), &list); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	out := make([]int64, len(list))
	for i, p := range list {
		out[i] = int64(p["id"].(float64))
	}
	return out
}

func sameIDs(a []int64, b ...int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// docs/gitlab-mock.md G1–G6: GET /groups/:id/projects answers as
// GroupProjectsFinder and Entities::Project do.
func TestGroupProjectsAsGitLab(t *testing.T) {
	_, ts := newTest(t, Options{})
	get := func(path string) reply {
		t.Helper()
		return do(t, ts, "GET", "/api/v4/groups/"+path, TokenMaintainer)
	}
	// G1: no permissions in the listing; archived is there.
	r := get("demo/projects?include_subgroups=true")
	if r.status != 200 || strings.Contains(r.body, `"permissions"`) || !strings.Contains(r.body, `"archived":false`) {
		t.Fatalf("%d %s", r.status, r.body)
	}
	// G4: newest first (created_at desc, then id desc); another order asked for.
	if got := ids(t, r.body); !sameIDs(got, 9, 8, 7, 5, 4, 3, 2, 1) {
		t.Errorf("default order %v", got)
	}
	if got := ids(t, get("demo/projects?order_by=path&sort=asc").body); !sameIDs(got, 3, 2, 4, 5, 1) {
		t.Errorf("by path %v", got)
	}
	// G2: projects shared into the group are listed (with_shared defaults
	// to true), with the user's role through the share; G3: archived ones
	// too unless asked.
	if got := ids(t, get("ops/projects").body); !sameIDs(got, 13, 12, 11, 10) {
		t.Errorf("ops %v", got)
	}
	if got := ids(t, get("ops/projects?with_shared=false").body); !sameIDs(got, 11, 10) {
		t.Errorf("without shares %v", got)
	}
	if got := ids(t, get("ops/projects?min_access_level=40").body); !sameIDs(got, 12, 11, 10) {
		t.Errorf("maintained %v (docs is shared with the Developer role)", got)
	}
	if got := ids(t, get("ops/projects?min_access_level=40&archived=false").body); !sameIDs(got, 12, 10) {
		t.Errorf("maintained, not archived %v", got)
	}
	if got := ids(t, get("ops/projects?archived=true").body); !sameIDs(got, 11) {
		t.Errorf("archived=true is only the archived %v", got)
	}
	// In demo/mobile the demo user is a Developer: kiosk is below Maintainer.
	if got := ids(t, get("demo%2Fmobile/projects?min_access_level=40").body); !sameIDs(got, 8, 7) {
		t.Errorf("demo/mobile maintained %v", got)
	}
	// G5: parameters are validated as Grape does.
	for q, want := range map[string]string{
		"min_access_level=33": "min_access_level does not have a valid value",
		"order_by=size":       "order_by does not have a valid value",
		"sort=up":             "sort does not have a valid value",
		"archived=maybe":      "archived is invalid",
	} {
		if r := get("demo/projects?" + q); r.status != 400 || r.body != `{"error":"`+want+`"}` {
			t.Errorf("%s: %d %s", q, r.status, r.body)
		}
	}
	// simple: BasicProjectDetails, without archived.
	if r := get("demo/projects?simple=true"); strings.Contains(r.body, `"archived"`) || !strings.Contains(r.body, `"namespace":{"id":100`) {
		t.Errorf("simple: %s", r.body)
	}
	// The developer token's user sees ops (a member) and its shared
	// projects, not demo/mobile's kiosk beyond its role.
	if r := do(t, ts, "GET", "/api/v4/groups/ops/projects?min_access_level=40", TokenDeveloper); r.status != 200 || r.body != "[]" {
		t.Errorf("a Developer maintains nothing in ops: %d %s", r.status, r.body)
	}
}

// G6: GET /groups/:id is GroupDetail: a subgroup's full_name names its
// parent, its own and its shared projects are listed, runners_token only
// for an Owner.
func TestGroupDetail(t *testing.T) {
	_, ts := newTest(t, Options{})
	var g map[string]any
	r := do(t, ts, "GET", "/api/v4/groups/101", TokenMaintainer)
	if err := json.Unmarshal([]byte(r.body), &g); err != nil {
		t.Fatal(err)
	}
	if g["full_name"] != "Demo / Mobile" || g["full_path"] != "demo/mobile" || g["parent_id"] != float64(100) || g["runners_token"] != nil {
		t.Errorf("%v", g)
	}
	if _, ok := g["prevent_sharing_groups_outside_hierarchy"]; ok {
		t.Error("a subgroup has prevent_sharing_groups_outside_hierarchy")
	}
	if got := ids(t, mustJSON(t, g["projects"])); !sameIDs(got, 9, 8, 7) {
		t.Errorf("projects %v", got)
	}
	r = do(t, ts, "GET", "/api/v4/groups/ops", TokenMaintainer)
	g = nil
	if err := json.Unmarshal([]byte(r.body), &g); err != nil {
		t.Fatal(err)
	}
	if got := ids(t, mustJSON(t, g["shared_projects"])); !sameIDs(got, 13, 12) || g["runners_token"] == nil {
		t.Errorf("ops: shared %v, runners_token %v", got, g["runners_token"])
	}
	if r := do(t, ts, "GET", "/api/v4/groups/ops?with_projects=false", TokenMaintainer); strings.Contains(r.body, `"projects"`) || !strings.Contains(r.body, `"shared_with_groups":[]`) {
		t.Errorf("with_projects=false: %s", r.body)
	}
	// partner: the demo user is no member, and reaches its projects only
	// through ops' shares, which makes the group visible (GroupPolicy's
	// has_projects) with those projects.
	r = do(t, ts, "GET", "/api/v4/groups/partner", TokenMaintainer)
	g = nil
	if err := json.Unmarshal([]byte(r.body), &g); err != nil || r.status != 200 {
		t.Fatalf("partner: %d %s", r.status, r.body)
	}
	if got := ids(t, mustJSON(t, g["projects"])); !sameIDs(got, 13, 12) {
		t.Errorf("partner's projects %v", got)
	}
	if r := do(t, ts, "GET", "/api/v4/groups/private", TokenMaintainer); r.status != 404 {
		t.Errorf("a group with nothing for the user: %d", r.status)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// P1–P3: permissions as ProjectWithAccess sends them: on a project's own
// record and the full /projects listing, never on the simple one; both null
// for a project reached only through a share.
func TestProjectPermissions(t *testing.T) {
	_, ts := newTest(t, Options{})
	for path, want := range map[string]string{
		"/api/v4/projects/7":  `"permissions":{"project_access":{"access_level":40,"notification_level":3},"group_access":{"access_level":30,"notification_level":3}}`,
		"/api/v4/projects/9":  `"permissions":{"project_access":{"access_level":30,"notification_level":3},"group_access":{"access_level":30,"notification_level":3}}`,
		"/api/v4/projects/12": `"permissions":{"project_access":null,"group_access":null}`,
		"/api/v4/projects/10": `"permissions":{"project_access":null,"group_access":{"access_level":50,"notification_level":3}}`,
	} {
		if r := do(t, ts, "GET", path, TokenMaintainer); r.status != 200 || !strings.Contains(r.body, want) {
			t.Errorf("%s: %d %s", path, r.status, r.body)
		}
	}
	if r := do(t, ts, "GET", "/api/v4/projects?membership=true", TokenMaintainer); !strings.Contains(r.body, `"permissions"`) {
		t.Errorf("the full listing has no permissions: %.200s", r.body)
	}
	if r := do(t, ts, "GET", "/api/v4/projects?membership=true&simple=true", TokenMaintainer); strings.Contains(r.body, `"permissions"`) || strings.Contains(r.body, `"archived"`) {
		t.Errorf("the simple listing: %.200s", r.body)
	}
	// The share gives the Maintainer role: the error tracking routes answer.
	if r := do(t, ts, "GET", "/api/v4/projects/12/error_tracking/client_keys", TokenMaintainer); r.status != 200 {
		t.Errorf("shared project's keys: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "GET", "/api/v4/projects/13/error_tracking/client_keys", TokenMaintainer); r.status != 403 {
		t.Errorf("a Developer through a share: %d %s", r.status, r.body)
	}
}

// P4: GitLab does not stop error tracking writes on an archived project
// (admin_operations is not an ability archived projects lose): the mock
// takes them too.
func TestArchivedProjectTakesErrorTrackingWrites(t *testing.T) {
	_, ts := newTest(t, Options{})
	const base = "/api/v4/projects/11/error_tracking/"
	if r := do(t, ts, "PATCH", base+"settings?active=false", TokenMaintainer); r.status != 200 || !strings.Contains(r.body, `"active":false`) {
		t.Errorf("PATCH: %d %s", r.status, r.body)
	}
	if r := do(t, ts, "PUT", base+"settings?active=true&integrated=true", TokenMaintainer); r.status != 200 {
		t.Errorf("PUT: %d %s", r.status, r.body)
	}
	r := do(t, ts, "POST", base+"client_keys", TokenMaintainer)
	if r.status != 201 {
		t.Fatalf("POST key: %d %s", r.status, r.body)
	}
	var k struct{ ID int64 }
	_ = json.Unmarshal([]byte(r.body), &k)
	if r := do(t, ts, "DELETE", base+"client_keys/"+itoa(k.ID), TokenMaintainer); r.status != 200 {
		t.Errorf("DELETE key: %d %s", r.status, r.body)
	}
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
