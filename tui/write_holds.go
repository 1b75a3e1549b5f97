package tui

import (
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/wording"
)

// What each write holds of its project while it runs (change.Hold): two
// changes whose holds meet never run at once, whichever came first, be
// they the user's own or a change to marked projects.

func (w createKeyWrite) holds() []change.Hold {
	return []change.Hold{{Project: w.proj.ID, What: change.HoldCreate}}
}

func (w deleteKeyWrite) holds() []change.Hold {
	return []change.Hold{{Project: w.proj.ID, What: change.HoldKey(keystore.KeyRef(w.key))}}
}

func (w verifyKeyWrite) holds() []change.Hold {
	return []change.Hold{{Project: w.proj.ID, What: change.HoldEvent}}
}

func (w settingsWrite) holds() []change.Hold {
	return []change.Hold{{Project: w.proj.ID, What: change.HoldSettings}}
}

// A rotation holds its old key and the variables it repoints, and the
// key creation until it made its key.
func (w rotationWrite) holds() []change.Hold {
	id := w.r.Project.ID
	h := []change.Hold{{Project: id, What: change.HoldKey(keystore.KeyRef(w.r.Old))}, {Project: id, What: change.HoldVariables}}
	if w.r.New == nil {
		h = append(h, change.Hold{Project: id, What: change.HoldCreate})
	}
	return h
}

// The token's rotation holds no project: one at a time (conflicts).
func (w tokenWrite) holds() []change.Hold { return nil }

// bulkHolding names the change to marked projects that holds what hs
// needs, in a project it has not finished: "" when none does.
func (m Model) bulkHolding(hs []change.Hold) string {
	r := m.sh.bulk
	if r == nil {
		return ""
	}
	for i, it := range r.plan.Items {
		if it.Result != "" && !r.running[i] {
			continue // ended, or left alone
		}
		if h, ok := change.Meet(r.plan.Holds(i), hs); ok {
			return r.words().Doing + " is at " + it.Project.Name() + " (its " + h.What + "; " + wording.Projects(r.acting-r.done, "") + " to go)"
		}
	}
	return ""
}

// writeHolding is the user's own change under way that holds what hs
// needs, if any.
func (m Model) writeHolding(hs []change.Hold) (write, bool) {
	for _, w := range m.sh.pending {
		if _, ok := change.Meet(w.holds(), hs); ok {
			return w, true
		}
	}
	return nil, false
}

// A Sentry key's change (its switch, name or rate limit) holds that key.
func (w updateKeyWrite) holds() []change.Hold {
	return []change.Hold{{Project: w.proj.ID, What: change.HoldKey(keystore.KeyRef(w.key))}}
}
