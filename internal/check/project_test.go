package check

import (
	"context"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// The rules on variables are held to the variables the audit read, the
// project's and its groups': fleet/app-001's SENTRY_DSN and the fleet
// group's FLEET_SENTRY_DSN hold its key's DSN, and neither is protected.
func TestProjectOfHoldsTheVariablesTheAuditRead(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{ScaleGroup: 1}, mockserver.TokenMaintainer)
	for name, read := range map[string]func() (audit.Audit, error){
		"audit": func() (audit.Audit, error) {
			return audit.AuditProjectWith(context.Background(), c, apiclient.ProjectRef{Path: "fleet/app-001"}, audit.AuditOptions{})
		},
		"key uses": func() (audit.Audit, error) {
			p, _, err := c.GetProject(context.Background(), apiclient.ProjectRef{Path: "fleet/app-001"})
			if err != nil {
				return audit.Audit{}, err
			}
			keys, _, err := c.ListClientKeys(context.Background(), apiclient.ProjectID(p.ID))
			if err != nil {
				return audit.Audit{}, err
			}
			return audit.KeyUses(context.Background(), c, projectscope.Project{Ref: apiclient.ProjectID(p.ID), ID: p.ID, Path: p.PathWithNamespace}, keys, nil, false)
		},
	} {
		a, err := read()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		res := Evaluate(policy(t, "rules:\n  dsn_variables: {protected: true}\n"), ProjectOf(a), now)
		var held []string
		for _, f := range res.Findings {
			if f.Rule == RuleDSNVariables {
				held = append(held, f.Variable)
			}
		}
		if got := strings.Join(held, ", "); !strings.Contains(got, "SENTRY_DSN") || !strings.Contains(got, "fleet") || len(held) != 2 {
			t.Errorf("%s: dsn-variables findings on %q, want the project's SENTRY_DSN and group fleet's FLEET_SENTRY_DSN", name, got)
		}
	}
}
