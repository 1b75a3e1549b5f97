package tui

import (
	"sync/atomic"

	tea "charm.land/bubbletea/v2"
	"github.com/errtrack/errtrack/internal/change"
)

// bulkRun is a bulk change under way: its plan with the results so far.
type bulkRun struct {
	id     uint64
	plan   change.Plan
	marked int
	// running are the items under way; done counts the items ended, of
	// acting, the plan's count at the start (counted once: a count per
	// event made a run over n projects cost n² steps).
	running map[int]bool
	done    int
	acting  int
	events  chan tea.Msg
	pace    *bulkPace
	// release lets go of a rotation's campaign claim.
	release func()
	// stopped: the user stopped it; the run reads it from its goroutine.
	stopped atomic.Bool
}

// words name the change.
func (r *bulkRun) words() change.ChangeWords { return r.plan.Kind.Words() }
