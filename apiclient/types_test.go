package apiclient

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestDecodesBothFieldNames(t *testing.T) {
	for _, body := range []string{
		`{"active":true,"project_name":"P","errtracker_external_url":"https://e/","api_url":"https://a/","integrated":false}`,
		`{"active":true,"project_name":"P","sentry_external_url":"https://e/","api_url":"https://a/","integrated":false}`,
	} {
		c := setup(t, func(w http.ResponseWriter, r *http.Request) { jsonReply(w, 200, body) })
		s, _, err := c.GetSettings(context.Background(), ProjectID(1))
		if err != nil || s.ExternalURL == nil || *s.ExternalURL != "https://e/" || *s.ProjectName != "P" || s.Integrated {
			t.Fatalf("%+v %v", s, err)
		}
	}
}

// A page of keys is decoded in one pass; it keeps the rules of a single
// key: either naming of the DSN, and no key without an ID.
func TestDecodeClientKeyPage(t *testing.T) {
	var keys []ClientKey
	if err := decodeClientKeys([]byte(`[{"id":3,"active":true,"public_key":"p","sentry_dsn":"s"},{"id":4,"errtracker_dsn":"e"}]`), &keys); err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0] != (ClientKey{ID: 3, Active: true, PublicKey: "p", DSN: "s"}) || keys[1].DSN != "e" {
		t.Fatalf("%+v", keys)
	}
	for _, bad := range []string{`[{"active":true}]`, `[{"id":0}]`, `[null]`, `{"id":1}`, `[{"id":"1"}]`} {
		if err := decodeClientKeys([]byte(bad), &keys); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

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

// Before 14.2 settings have no integrated field: they decode, and encode
// without inventing one.
func TestSettingsWithoutIntegrated(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		jsonReply(w, 200, `{"active":true,"project_name":"P","sentry_external_url":"https://s/","api_url":"https://s/api/0/projects/o/p/"}`)
	})
	s, _, err := c.GetSettings(context.Background(), ProjectID(1))
	if err != nil || !s.Active || !s.NoIntegrated || s.Integrated {
		t.Fatal(s, err)
	}
	b, _ := json.Marshal(s)
	if strings.Contains(string(b), "integrated") || !strings.Contains(string(b), "errtracker_external_url") {
		t.Fatalf("%s", b)
	}
	b, _ = json.Marshal(Settings{Active: true, Integrated: true})
	if !strings.Contains(string(b), `"integrated":true`) {
		t.Fatalf("%s", b)
	}
}
