package change

import (
	"context"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
)

// A run the user stopped begins no more projects: those not begun are
// not reached, and nothing changes there.
func TestStoppedRunReachesNoMoreProjects(t *testing.T) {
	srv, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	l, _ := testLedger(t)
	k := rotateSentryDSN(l)
	k.DeleteWithUnreadGroups = true
	p := plan(t, c, flowtest.DemoGroup(t), true, k)
	before := srv.KeyCount(1) + srv.KeyCount(7)
	env := runEnv(c)
	env.Stopped = func() bool { return true }
	done := p.Run(context.Background(), env, nil)
	if done.Count(ResultNotReached) != p.Acting() || done.Count(ResultChanged) != 0 || srv.KeyCount(1)+srv.KeyCount(7) != before {
		t.Fatalf("%+v", done.Items)
	}
}
