package workflow

import (
	"context"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// A delete's question names the group variables holding the key's DSN,
// found in the same round trip when the project is given by path, and
// once its path is known when given by ID.
func TestPlanDeletionNamesGroupVariables(t *testing.T) {
	_, c := mock(t, mockserver.Options{ScaleGroup: 2}, mockserver.TokenMaintainer)
	ctx := context.Background()
	for _, ref := range []apiclient.ProjectRef{{Path: "fleet/app-001"}, apiclient.ProjectID(2001)} {
		d, err := PlanDeletion(ctx, c, ref, 200001)
		if err != nil {
			t.Fatal(err)
		}
		w := d.Warning()
		if len(d.GroupUses) != 1 || !strings.Contains(w, "group fleet/FLEET_SENTRY_DSN (environment production)") || !strings.Contains(w, "SENTRY_DSN (all environments) holds") {
			t.Fatalf("%v: %+v\n%s", ref, d.GroupUses, w)
		}
	}
	if d, _ := PlanDeletion(ctx, c, apiclient.ProjectRef{Path: "fleet/app-002"}, 200002); len(d.GroupUses) != 0 {
		t.Fatalf("%+v", d.GroupUses)
	}
}
