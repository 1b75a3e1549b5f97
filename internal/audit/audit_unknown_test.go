package audit

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/rotation"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// ops/api: key 910 is held only by hidden variables (the project's
// SENTRY_DSN and the group's OPS_SENTRY_DSN), key 911 by a line of the
// dotenv file variable APP_ENV. The first is unknown, named by its hidden
// variables, never "unused"; the second is used by that line.
func TestAuditHiddenAndFileVariables(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	a, err := auditProject(context.Background(), c, apiclient.ProjectID(10))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Keys) != 2 || len(a.Unread) != 0 {
		t.Fatalf("keys %+v unread %v", a.Keys, a.Unread)
	}
	hidden, file := a.Keys[0], a.Keys[1]
	if hidden.Key.ID != 910 || !hidden.UseUnknown() {
		t.Fatalf("key 910: %+v", hidden)
	}
	var labels []string
	for _, u := range hidden.Used {
		labels = append(labels, u.Label())
	}
	if got := strings.Join(labels, "; "); got != "unknown: hidden variable SENTRY_DSN (all environments); unknown: hidden variable group ops/OPS_SENTRY_DSN (environment production)" {
		t.Errorf("key 910 used: %s", got)
	}
	if file.Key.ID != 911 || len(file.Known()) != 1 || file.Used[0].Label() != "APP_ENV (all environments), its SENTRY_DSN line" || file.Used[0].Short() != "APP_ENV:SENTRY_DSN" {
		t.Fatalf("key 911: %+v", file)
	}
	all := fmt.Sprint(a.Findings)
	if strings.Contains(all, "referenced by no CI/CD variable") || strings.Contains(all, "delete it once") {
		t.Errorf("a key a hidden variable may hold is called unused: %s", all)
	}
	if !strings.Contains(all, "whether a CI/CD variable holds the DSN of key 910") || strings.Contains(all, "key 911") {
		t.Errorf("findings: %s", all)
	}
}

// A DSN written another way than GitLab writes it (a trailing slash, the
// host in capitals, no default port) is the key's, not a key that no
// longer exists.
func TestAuditMatchesDSNsAsURLs(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	ref := apiclient.ProjectID(1)
	keys, _, err := c.ListClientKeys(ctx, ref)
	if err != nil {
		t.Fatal(err)
	}
	spelled := "HTTP" + strings.TrimPrefix(keys[0].DSN, "http") + "/"
	if _, _, err := c.UpdateVariableValue(ctx, ref, "SENTRY_DSN", "*", spelled); err != nil {
		t.Fatal(err)
	}
	a, err := auditProject(ctx, c, ref)
	if err != nil {
		t.Fatal(err)
	}
	if a.Errors() != 0 || len(a.Keys[0].Known()) != 1 || a.Keys[0].Key.ID != keys[0].ID {
		t.Fatalf("keys %+v findings %+v", a.Keys, a.Findings)
	}
	// The delete question finds it too.
	d, err := rotation.PlanDeletionIn(ctx, c, ref, nil, strconv.FormatInt(keys[0].ID, 10), false)
	if err != nil || len(d.Variables) != 1 || d.Variables[0].Key != "SENTRY_DSN" {
		t.Fatalf("deletion %+v %v", d, err)
	}
}
