package apiclient

import (
	"encoding/json"
	"testing"
)

// The fields of a project errtrack decides with, as GitLab's entities send
// them: Entities::Project in a group's listing (archived, namespace,
// shared_with_groups, no permissions), ProjectWithAccess for a project's
// own record (permissions, null where the role comes through a share).
func TestProjectDecodesGitLabFields(t *testing.T) {
	var listed Project
	body := `{"id":12,"path_with_namespace":"partner/sdk","archived":false,
		"namespace":{"id":103,"name":"Partner","path":"partner","kind":"group","full_path":"partner","parent_id":null,"avatar_url":null,"web_url":"https://h/groups/partner"},
		"shared_with_groups":[{"group_id":102,"group_name":"Ops","group_full_path":"ops","group_access_level":40,"expires_at":null}]}`
	if err := json.Unmarshal([]byte(body), &listed); err != nil {
		t.Fatal(err)
	}
	if listed.Permissions != nil || listed.Archived || listed.Namespace == nil || listed.Namespace.FullPath != "partner" || listed.Namespace.ParentID != nil {
		t.Errorf("listed = %+v", listed)
	}
	if len(listed.SharedWithGroups) != 1 || listed.SharedWithGroups[0].GroupFullPath != "ops" || listed.SharedWithGroups[0].GroupAccessLevel != 40 {
		t.Errorf("shared_with_groups = %+v", listed.SharedWithGroups)
	}

	var own Project
	if err := json.Unmarshal([]byte(`{"id":12,"archived":true,"permissions":{"project_access":null,"group_access":null}}`), &own); err != nil {
		t.Fatal(err)
	}
	if own.Permissions == nil || own.AccessLevel() != 0 || !own.Archived {
		t.Errorf("a share-only project's own record = %+v", own)
	}
	if err := json.Unmarshal([]byte(`{"id":9,"permissions":{"project_access":{"access_level":30,"notification_level":3},"group_access":{"access_level":40,"notification_level":3}}}`), &own); err != nil {
		t.Fatal(err)
	}
	if own.AccessLevel() != 40 {
		t.Errorf("AccessLevel = %d, want the higher of the two", own.AccessLevel())
	}
}

// A hidden variable (17.4) has a null value; a file variable says so.
func TestVariableDecodesHiddenAndFile(t *testing.T) {
	var vs []Variable
	body := `[{"variable_type":"env_var","key":"SENTRY_DSN","value":null,"hidden":true,"protected":false,"masked":true,"raw":true,"environment_scope":"*","description":null},
		{"variable_type":"file","key":"APP_ENV","value":"SENTRY_DSN=x\n","protected":false,"masked":false,"raw":true,"environment_scope":"*"}]`
	if err := json.Unmarshal([]byte(body), &vs); err != nil {
		t.Fatal(err)
	}
	if vs[0].Value != nil || !vs[0].Hidden || vs[0].VariableType != "env_var" {
		t.Errorf("hidden variable = %+v", vs[0])
	}
	if vs[1].Value == nil || vs[1].Hidden || vs[1].VariableType != "file" {
		t.Errorf("file variable (no hidden field: before 17.4) = %+v", vs[1])
	}
}
