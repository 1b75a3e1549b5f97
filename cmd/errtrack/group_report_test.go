package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/testevent"
)

const (
	sentryOldPublic = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
	sentryNewPublic = "f9e8d7c6b5a4938271605f4e3d2c1b0a"
)

// reportApp is an app whose report goes to a buffer.
func reportApp() (*app, *bytes.Buffer) {
	var out bytes.Buffer
	return &app{getenv: func(string) string { return "" }, stdout: &out, stderr: &out}, &out
}

// A group rotation's report names a Sentry key by its ref (public key and
// name), in the table and in --json, where it was an ID of 0 ("-", no
// old_key_id); a GitLab key keeps its integer fields.
func TestGroupReportNamesSentryKeysByRef(t *testing.T) {
	plan := change.Plan{Kind: change.RotateChange{Variable: "SENTRY_DSN"}, Items: []change.Item{
		{Project: projectscope.Project{ID: 7, Path: "demo/legacy-api"}, Action: "rotate", Result: change.ResultChanged,
			Detail: change.RotationResult{Old: apiclient.ClientKey{PublicKey: sentryOldPublic, Name: "Production"},
				New: apiclient.ClientKey{PublicKey: sentryNewPublic, Name: "Production"}}},
		{Project: projectscope.Project{ID: 1, Path: "demo/web-shop"}, Action: "rotate", Result: change.ResultChanged,
			Detail: change.RotationResult{Old: apiclient.ClientKey{ID: 1}, New: apiclient.ClientKey{ID: 9}}},
	}}
	a, out := reportApp()
	if err := a.printGroupReport(&globalFlags{jsonOut: true}, plan); err != nil {
		t.Fatal(err)
	}
	var items []map[string]any
	if err := json.Unmarshal(out.Bytes(), &items); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	sentryItem, gitlabItem := items[0], items[1]
	if _, ok := sentryItem["old_key_id"]; ok {
		t.Errorf("a Sentry key as a GitLab ID: %v", sentryItem)
	}
	old, _ := sentryItem["old_key"].(map[string]any)
	made, _ := sentryItem["new_key"].(map[string]any)
	if old["public_key"] != sentryOldPublic || old["name"] != "Production" || made["public_key"] != sentryNewPublic {
		t.Errorf("Sentry keys not named by their ref: %v", sentryItem)
	}
	if gitlabItem["old_key_id"] != 1.0 || gitlabItem["new_key_id"] != 9.0 || gitlabItem["old_key"].(map[string]any)["id"] != 1.0 {
		t.Errorf("GitLab keys: %v", gitlabItem)
	}
	out.Reset()
	if err := a.printGroupReport(&globalFlags{}, plan); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^demo/legacy-api\s+changed\s+"Production" \(0a1b2c3d.*→ "Production" \(f9e8d7c6`).MatchString(out.String()) ||
		!regexp.MustCompile(`(?m)^demo/web-shop\s+changed\s+1 → 9\s`).MatchString(out.String()) {
		t.Errorf("the KEYS column:\n%s", out)
	}
}

// A test event a Sentry key's DSN was refused with names that key, never
// "key 0"; --json names it by its public key.
func TestGroupReportNamesARefusedSentryKey(t *testing.T) {
	key := apiclient.ClientKey{PublicKey: sentryOldPublic, Name: "Production"}
	it := change.Item{Project: projectscope.Project{ID: 7, Path: "demo/legacy-api"}, Action: "send a test event", Result: change.ResultFailed,
		Err:    &testevent.RefusedError{Check: &apiclient.DSNCheck{StatusCode: 403}},
		Detail: change.VerifyResult{Key: key, Check: &apiclient.DSNCheck{StatusCode: 403}}}
	a, out := reportApp()
	w := a.groupWords(it)
	if !strings.HasPrefix(w, `key "Production" (0a1b2c3d`) || strings.Contains(w, "key 0") {
		t.Errorf("words: %s", w)
	}
	if err := a.printGroupReport(&globalFlags{jsonOut: true}, change.Plan{Kind: change.VerifyChange{}, Items: []change.Item{it}}); err != nil {
		t.Fatal(err)
	}
	var items []map[string]any
	if err := json.Unmarshal(out.Bytes(), &items); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if k, _ := items[0]["key"].(map[string]any); k["public_key"] != sentryOldPublic || items[0]["key_id"] != nil {
		t.Errorf("the key: %v", items[0])
	}
}

// Against the mocks: a group rotation and a group verify of a
// Sentry-backed project name its keys by public key, in --json and in the
// table's KEYS column (they were "-", and no key in --json).
func TestGroupRotateNamesSentryKeysAgainstTheMock(t *testing.T) {
	t.Parallel()
	c, ss := sentryCLI(t)
	var prod string
	for _, k := range ss.Keys("demo", "legacy-api") {
		if k.Label == "Production" {
			prod = k.Public
		}
	}
	v := c.run("", "keys", "verify", "--group", "demo", "--yes")
	if !regexp.MustCompile(`(?m)^demo/legacy-api\s+ok\s+"Production" \(` + prod[:8]).MatchString(v.stdout) {
		t.Errorf("verify's KEYS column:\n%s%s", v.stdout, v.stderr)
	}
	r := c.run("", "keys", "rotate", "--group", "demo", "--ci-variable", "SENTRY_DSN", "--yes", "--update-variables", "--delete-with-unread-groups", "--json")
	var items []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &items); err != nil {
		t.Fatalf("%v\n%s%s", err, r.stdout, r.stderr)
	}
	for _, it := range items {
		if it["project"] != "demo/legacy-api" {
			continue
		}
		old, _ := it["old_key"].(map[string]any)
		made, _ := it["new_key"].(map[string]any)
		if it["result"] != "changed" || old["public_key"] != prod || made == nil || made["public_key"] == "" || made["public_key"] == prod {
			t.Fatalf("%v\n%s", it, r.stderr)
		}
		return
	}
	t.Fatalf("no demo/legacy-api:\n%s%s", r.stdout, r.stderr)
}
