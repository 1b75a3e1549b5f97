package change

import (
	"context"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
)

// A variable several environment scopes have: the rotation and the test
// events skip the project, saying how to name one in the front end's own
// words (ScopeHow), and without them no other front end's.
func TestAmbiguousVariableInTheFrontEndsWords(t *testing.T) {
	_, c := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
	if _, _, err := c.CreateVariable(context.Background(), apiclient.ProjectID(7), apiclient.NewVariable{Key: "SENTRY_DSN", Value: "x", EnvironmentScope: "staging"}); err != nil {
		t.Fatal(err)
	}
	for how, want := range map[string]string{"": "in different environment scopes", "<its way>": "in different environment scopes: <its way>"} {
		for _, kind := range []Kind{RotateChange{Variable: "SENTRY_DSN", ScopeHow: how}, VerifyChange{Variable: "SENTRY_DSN", ScopeHow: how}} {
			it := byPath(plan(t, c, flowtest.DemoGroup(t), true, kind))["demo/mobile/ios"]
			if it.Acts() || !strings.HasSuffix(it.Skip, want) || strings.Contains(it.Skip, "--") {
				t.Errorf("%T, ScopeHow %q: %+v", kind, how, it)
			}
		}
	}
}
