package audit

import (
	"context"
	"errors"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
)

func TestProjectOverview(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	for id, want := range map[int64]string{
		1: "integrated · on · 2 keys",
		2: "not set up",
		3: "Sentry · on",
		5: "integrated · off · 1 key",
		6: "not found",
	} {
		if got := ProjectOverview(ctx, c, apiclient.ProjectID(id)).Summary(); got != want {
			t.Errorf("project %d: %q, want %q", id, got, want)
		}
	}
	_, dev := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenDeveloper)
	if got := ProjectOverview(ctx, dev, apiclient.ProjectID(1)).Summary(); got != "no access (Maintainer role needed)" {
		t.Errorf("developer: %q", got)
	}
	// A flag-off instance reports integrated false without a Sentry: not
	// "Sentry", as nothing collects.
	_, off := flowtest.Mock(t, mockserver.Options{NoIntegratedErrorTracking: true}, mockserver.TokenMaintainer)
	if got := ProjectOverview(ctx, off, apiclient.ProjectID(1)).Summary(); got != "no backend · on" {
		t.Errorf("flag off: %q", got)
	}
	if got := ProjectOverview(ctx, off, apiclient.ProjectID(3)).Summary(); got != "Sentry · on" {
		t.Errorf("flag off, Sentry project: %q", got)
	}
}

// A key count that failed is an overview error, unless the release has no
// such route; a settings error comes first.
func TestOverviewKeyCountErrors(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	boom := errors.New("boom")
	if o := ProjectOverview(context.Background(), countFails{c, boom}, apiclient.ProjectID(1)); !errors.Is(o.Err, boom) {
		t.Fatalf("%+v", o)
	}
	missing := &apiclient.APIError{Kind: apiclient.ErrRouteMissing}
	if o := ProjectOverview(context.Background(), countFails{c, missing}, apiclient.ProjectID(1)); o.Err != nil {
		t.Fatalf("%+v", o)
	}
}
