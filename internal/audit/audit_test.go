package audit

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/seen"
)

// The audit of demo/mobile/ios finds where its key's DSN is used, the
// variable left on a deleted key (an error), and says the groups' variables
// were not readable; once fixed, no error is left.
func TestAuditProject(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	ref, _ := apiclient.ParseProjectRef("demo/mobile/ios")
	a, err := auditProject(ctx, c, ref)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Keys) != 1 || len(a.Keys[0].Used) != 1 || a.Keys[0].Used[0].Label() != "SENTRY_DSN (all environments)" {
		t.Fatalf("%+v", a.Keys)
	}
	if a.Errors() != 1 || !strings.Contains(a.Findings[0].What, "OLD_SENTRY_DSN (environment staging) holds the DSN of a key that no longer exists") {
		t.Fatalf("%+v", a.Findings)
	}
	if len(a.Unread) != 2 {
		t.Fatalf("unread %v", a.Unread)
	}
	// Fixed: the stale variable removed.
	if _, _, err := c.Raw(ctx, "DELETE", "projects/7/variables/OLD_SENTRY_DSN", nil, nil); err != nil {
		t.Fatal(err)
	}
	if a, _ = auditProject(ctx, c, apiclient.ProjectID(7)); a.Errors() != 0 || a.Project.Path != "demo/mobile/ios" {
		t.Fatalf("%+v", a.Findings)
	}
	// A key no readable variable holds, under groups whose variables the
	// token cannot read (the demo user owns neither demo nor demo/mobile):
	// its use is unknown, and nothing advises deleting it.
	a, _ = auditProject(ctx, c, apiclient.ProjectID(8))
	if a.Errors() != 0 || !a.Keys[0].UseUnknown() || len(a.Keys[0].Known()) != 0 {
		t.Fatalf("%+v", a.Keys)
	}
	for _, f := range a.Findings {
		if strings.Contains(f.What, "referenced by no CI/CD variable") || strings.Contains(f.Fix, "delete it") {
			t.Fatalf("an unreadable group's variables may hold the key, and yet: %+v", f)
		}
	}
	if !strings.Contains(a.Findings[0].What, "is unknown: the CI/CD variables of group demo could not be read") {
		t.Fatalf("%+v", a.Findings)
	}
	// Where every variable can be read (the demo user owns fleet), a key
	// referenced nowhere is worth knowing, not an error.
	_, fc := flowtest.Mock(t, mockserver.Options{ScaleGroup: 1}, mockserver.TokenMaintainer)
	if _, _, err := fc.CreateClientKey(ctx, apiclient.ProjectID(2001)); err != nil {
		t.Fatal(err)
	}
	a, _ = auditProject(ctx, fc, apiclient.ProjectID(2001))
	if a.Errors() != 0 || len(a.Unread) != 0 || !strings.Contains(fmt.Sprint(a.Findings), "referenced by no CI/CD variable") {
		t.Fatalf("%+v", a.Findings)
	}
}

// KeyUses annotates keys already read: the same uses and findings as the
// audit, from the variables alone.
func TestKeyUsesMatchesTheAudit(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	ref, _ := apiclient.ParseProjectRef("demo/mobile/ios")
	full, err := auditProject(ctx, c, ref)
	if err != nil {
		t.Fatal(err)
	}
	keys, _, _ := c.ListClientKeys(ctx, ref)
	got, err := KeyUses(ctx, c, full.Project, keys, full.Settings, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Keys) != len(full.Keys) || len(got.Keys[0].Used) == 0 || got.Keys[0].Used[0].Label() != full.Keys[0].Used[0].Label() {
		t.Fatalf("uses %+v, audit %+v", got.Keys, full.Keys)
	}
	if got.Errors() != full.Errors() || got.Errors() == 0 {
		t.Fatalf("findings %+v, audit %+v", got.Findings, full.Findings)
	}
}

// A key referenced nowhere and older than every key in use is a warning
// (likely left by a rotation); keys first seen together are not ordered.
func TestAuditAges(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{ScaleGroup: 1}, mockserver.TokenMaintainer)
	ctx := context.Background()
	fresh, _, err := c.CreateClientKey(ctx, apiclient.ProjectID(2001)) // the one SENTRY_DSN holds is 200001
	if err != nil {
		t.Fatal(err)
	}
	a, err := auditProject(ctx, c, apiclient.ProjectID(2001))
	if err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	same := a
	same.Findings = slices.Clone(a.Findings)
	same.WithAges(map[int64]seen.Entry{200001: {First: day}, fresh.ID: {First: day}})
	if len(same.Findings) != len(a.Findings) || strings.Contains(fmt.Sprint(same.Findings), "older") {
		t.Fatalf("%+v", same.Findings)
	}
	// The fresh key is unused and older than key 200001, which SENTRY_DSN holds.
	a.WithAges(map[int64]seen.Entry{200001: {First: day.AddDate(0, 0, 3), Created: true}, fresh.ID: {First: day}})
	want := fmt.Sprintf("key %d (", fresh.ID) // KeyLabel
	found := false
	for _, f := range a.Findings {
		if f.Severity == SeverityWarning && strings.Contains(f.What, want) && strings.Contains(f.What, "older than the keys in use (first seen 2026-11-01)") {
			found = true
		}
		if f.Severity == SeverityInfo && strings.Contains(f.What, want) {
			t.Fatalf("the info finding stayed beside the warning: %+v", a.Findings)
		}
	}
	if !found || !a.Keys[0].Seen.Created {
		t.Fatalf("%+v", a.Findings)
	}
	// A key whose use is unknown is never the one "left behind".
	w, _ := auditProject(ctx, c, apiclient.ProjectID(1)) // demo: its group cannot be read
	w.WithAges(map[int64]seen.Entry{1: {First: day.AddDate(0, 0, 3)}, 2: {First: day}})
	if strings.Contains(fmt.Sprint(w.Findings), "older than the keys in use") {
		t.Fatalf("%+v", w.Findings)
	}
}

// The groups not read come in order, so a kept report reads the same run
// after run.
func TestUnreadGroupsInOrder(t *testing.T) {
	a := Audit{Unread: map[string]error{"web/mobile": nil, "web": nil, "ops": nil}}
	if got := a.UnreadGroups(); !slices.Equal(got, []string{"ops", "web", "web/mobile"}) {
		t.Fatal(got)
	}
}

// auditProject is the audit with no options.
func auditProject(ctx context.Context, api AuditAPI, ref apiclient.ProjectRef) (Audit, error) {
	return AuditProjectWith(ctx, api, ref, AuditOptions{})
}

// audit -p ID of a project whose path was seen: its groups' variables are
// read with the rest, one round trip; a path that is stale (the project
// moved) costs a second, and only the real path's groups count.
func TestAuditByIDOneRoundTrip(t *testing.T) {
	ctx := context.Background()
	ios := apiclient.ProjectID(7)
	// project, settings, keys, variables, demo/mobile and demo variables
	w, c, _ := flowtest.WaveClient(t, 6)
	au, err := AuditProjectWith(ctx, c, ios, AuditOptions{LastPath: "demo/mobile/ios"})
	if err != nil || au.Project.Path != "demo/mobile/ios" {
		t.Fatalf("%+v %v", au, err)
	}
	w.Check(t)
	_, c2 := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	plain, err := auditProject(ctx, c2, ios)
	if err != nil || len(plain.Findings) != len(au.Findings) || len(plain.Unread) != len(au.Unread) {
		t.Fatalf("with the path: %+v\nwithout: %+v", au.Findings, plain.Findings)
	}

	_, c3 := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	moved, err := AuditProjectWith(ctx, c3, ios, AuditOptions{LastPath: "elsewhere/team/ios"})
	if err != nil {
		t.Fatal(err)
	}
	var unread []string
	for g := range moved.Unread {
		unread = append(unread, g)
	}
	sort.Strings(unread)
	if strings.Join(unread, ",") != "demo,demo/mobile" || len(moved.Findings) != len(plain.Findings) {
		t.Fatalf("a stale path's groups counted: %v\n%+v", unread, moved.Findings)
	}
}
