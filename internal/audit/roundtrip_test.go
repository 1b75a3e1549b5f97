package audit

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
)

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
