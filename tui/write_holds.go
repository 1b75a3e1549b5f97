package tui

import (
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/wording"
	"github.com/errtrack/errtrack/internal/workflow"
)

// What each write holds of its project while it runs (workflow.Hold): two
// changes whose holds meet never run at once, whichever came first, be
// they the user's own or a change to marked projects.

func (w createKeyWrite) holds() []workflow.Hold {
	return []workflow.Hold{{Project: w.proj.ID, What: workflow.HoldCreate}}
}

func (w deleteKeyWrite) holds() []workflow.Hold {
	return []workflow.Hold{{Project: w.proj.ID, What: workflow.HoldKey(keystore.KeyRef(w.key))}}
}

func (w verifyKeyWrite) holds() []workflow.Hold {
	return []workflow.Hold{{Project: w.proj.ID, What: workflow.HoldEvent}}
}

func (w settingsWrite) holds() []workflow.Hold {
	return []workflow.Hold{{Project: w.proj.ID, What: workflow.HoldSettings}}
}

// A rotation holds its old key and the variables it repoints, and the
// key creation until it made its key.
func (w rotationWrite) holds() []workflow.Hold {
	id := w.r.Project.ID
	h := []workflow.Hold{{Project: id, What: workflow.HoldKey(keystore.KeyRef(w.r.Old))}, {Project: id, What: workflow.HoldVariables}}
	if w.r.New == nil {
		h = append(h, workflow.Hold{Project: id, What: workflow.HoldCreate})
	}
	return h
}

// The token's rotation holds no project: one at a time (conflicts).
func (w tokenWrite) holds() []workflow.Hold { return nil }

// bulkHolding names the change to marked projects that holds what hs
// needs, in a project it has not finished: "" when none does.
func (m Model) bulkHolding(hs []workflow.Hold) string {
	r := m.sh.bulk
	if r == nil {
		return ""
	}
	for i, it := range r.plan.Items {
		if it.Result != "" && !r.running[i] {
			continue // ended, or left alone
		}
		if h, ok := workflow.Meet(r.plan.Holds(i), hs); ok {
			return r.words().Doing + " is at " + it.Project.Name() + " (its " + h.What + "; " + wording.Projects(r.acting-r.done, "") + " to go)"
		}
	}
	return ""
}

// writeHolding is the user's own change under way that holds what hs
// needs, if any.
func (m Model) writeHolding(hs []workflow.Hold) (write, bool) {
	for _, w := range m.sh.pending {
		if _, ok := workflow.Meet(w.holds(), hs); ok {
			return w, true
		}
	}
	return nil, false
}

// A Sentry key's change (its switch, name or rate limit) holds that key.
func (w updateKeyWrite) holds() []workflow.Hold {
	return []workflow.Hold{{Project: w.proj.ID, What: workflow.HoldKey(keystore.KeyRef(w.key))}}
}
