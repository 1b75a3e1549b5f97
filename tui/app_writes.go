package tui

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// The root's side of writes: it starts them (one of each change at a time),
// keeps the ones in flight, and applies how each ended, whatever screen is
// open.

// startWrite registers w and runs it, unless the same change is already
// under way.
func (m Model) startWrite(w write) (Model, tea.Cmd) {
	if m.sh.api == nil {
		return m, nil
	}
	for _, p := range m.sh.pending {
		if p.conflicts(w) {
			return m.setStatus(statusMsg{text: "That change is already under way for " + w.project().Name() + ".", kind: statusInfo})
		}
		if h, ok := change.Meet(p.holds(), w.holds()); ok {
			return m.setStatus(statusMsg{text: "A change of yours still under way holds " + w.project().Name() + "'s " + h.What + ": try again once it ended.", kind: statusInfo})
		}
	}
	if by := m.bulkHolding(w.holds()); by != "" {
		return m.setStatus(statusMsg{text: by + ": wait for it to end there, then try again.", kind: statusInfo})
	}
	id := nextRequestID()
	m.sh.pending[id] = w
	// What an earlier change said is not about this one.
	if m.status.about != nil {
		m.status = statusMsg{}
		m.statusSeq++
		m.resize()
	}
	api, deps := m.sh.api, m.sh.deps
	return m, apiCmd(m.sh.ctx(), deps.RequestTimeout, func(ctx context.Context) tea.Msg {
		return writeDoneMsg{id: id, w: w.run(ctx, api, deps)}
	})
}

// writeDone forgets the write and returns how it ended, for the router to
// apply: a refused token sends the user to log in (but for the token's own
// rotation, which words its failure).
func (m Model) writeDone(msg writeDoneMsg) outcome {
	delete(m.sh.pending, msg.id)
	if _, token := msg.w.(tokenWrite); !token && gitlabRefused(msg.w.failure()) {
		return outcome{authFailedMsg{msg.w.failure()}}
	}
	return msg.w.outcome(m.sh.voice())
}

// askAtKey opens the question while the user still looks at its key.
func (m Model) askAtKey(msg askAtKeyMsg) (Model, tea.Cmd) {
	if !m.looksAt(msg.project, msg.key) {
		return m.setStatus(m.named(statusMsg{text: msg.moved, kind: statusInfo, about: &msg.project}))
	}
	m.dialogs = append(m.dialogs, msg.d.openAsync(m.sh.clock.Now()))
	return m, m.sh.clock.After(gracePeriod, graceTickMsg{})
}

// looksAt reports that the user is on project p's keys with key k
// selected and nothing else open.
func (m Model) looksAt(p projectscope.Project, key apiclient.ClientKey) bool {
	ps, ok := m.top().(*projectScreen)
	if !ok || !sameProject(ps.project, p) || ps.tab != tabKeys || len(m.dialogs) > 0 || m.log != nil || m.showHelp {
		return false
	}
	k, ok := ps.keys.selected()
	return ok && keystore.SameKey(k, key)
}
