package change

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/rotation"
)

// A group rotation leaves a project whose groups' variables could not be
// read alone, naming the group, unless the user said to rotate anyway;
// the plan changes nothing either way.
func TestGroupRotationLeavesAProjectWhoseGroupIsUnread(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	l, _ := testLedger(t)
	before := srv.KeyCount(1)
	p := plan(t, c, flowtest.DemoGroup(t), true, rotateSentryDSN(l))
	it := byPath(p)["demo/web-shop"]
	var unsafe *rotation.UnsafeDeleteError
	if it.Acts() || it.Result != ResultFailed || !errors.As(it.Err, &unsafe) || !strings.Contains(it.Err.Error(), "group demo") {
		t.Fatalf("%+v", it)
	}
	done := runPlan(t, context.Background(), p, c, nil)
	if done.Count(ResultChanged) != 0 || srv.KeyCount(1) != before {
		t.Fatalf("%+v", done.Items)
	}
	k := rotateSentryDSN(l)
	k.DeleteWithUnreadGroups = true
	if it := byPath(plan(t, c, flowtest.DemoGroup(t), true, k))["demo/web-shop"]; !it.Acts() {
		t.Fatalf("%+v", it)
	}
}
