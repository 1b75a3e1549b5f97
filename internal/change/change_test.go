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

// A project listed twice (pages that moved while read) is one project:
// one key made.
func TestProjectListedTwiceRotatedOnce(t *testing.T) {
	srv, c, creates, _ := flowtest.MockCounting(t, mockserver.Options{ScaleGroup: 2})
	l, _ := testLedger(t)
	f := &faultyGroup{Faulty: &flowtest.Faulty{Client: c}, listTwice: true}
	p := plan(t, f, flowtest.Fleet(), false, keep(l))
	if len(p.Items) != 2 || p.Acting() != 2 {
		t.Fatalf("%d items for 2 projects listed twice", len(p.Items))
	}
	runPlan(t, context.Background(), p, f, nil)
	if creates.Load() != 2 || srv.KeyCount(2001) != 1 {
		t.Fatalf("%d creates for 2 projects", creates.Load())
	}
}
