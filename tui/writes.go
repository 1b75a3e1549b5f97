package tui

import (
	"context"
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/workflow"
)

// Writes go through the root, not the screen that asked for them: the user
// may leave the screen before the answer, and a created key, its DSN and the
// next question of a rotation must reach them wherever they are. Each write
// is a small value (as gh-dash's tasks) carrying what the user confirmed,
// not whatever a screen shows by the time it runs; the root keeps only the
// bookkeeping.
type write interface {
	// project is the project the write changes (zero for the token).
	project() workflow.Project
	// pending says what is under way, for PendingWrites and on quitting.
	pending() string
	// conflicts reports the same change already under way.
	conflicts(other write) bool
	// run makes the change, off the UI goroutine, and returns the write
	// with its outcome.
	run(ctx context.Context, api API, deps Deps) write
	// failure is the error the write ended with, if any.
	failure() error
	// changed says what the screens showing the project update.
	changed() changes
	// outcome tells the user how it ended, whatever screen is open, and
	// asks the next question where there is one.
	outcome(m Model) (Model, tea.Cmd)
}

// changes are what a write changed, for the screens showing its project.
type changes struct {
	added    []apiclient.ClientKey
	removed  []int64
	keys     []apiclient.ClientKey // the whole list, when re-read
	settings *apiclient.Settings
	// stale: an answer was lost or a key was missing; read the list again.
	stale bool
	// settingsStale: a settings change's answer was lost; read them again.
	settingsStale bool
}

// startWriteMsg asks the root to make a write.
type startWriteMsg struct{ w write }

// writeDoneMsg answers a write; screens showing its project update from it.
type writeDoneMsg struct {
	id uint64
	w  write
}

func sameProject(a, b workflow.Project) bool {
	return (a.ID != 0 && a.ID == b.ID) || a.Ref == b.Ref
}

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
	return m, apiCmd(deps.RequestTimeout, func(ctx context.Context) tea.Msg {
		return writeDoneMsg{id: id, w: w.run(ctx, api, deps)}
	})
}

// writeDone tells the user how a write ended, whatever screen is open.
func (m Model) writeDone(msg writeDoneMsg) (Model, tea.Cmd) {
	delete(m.sh.pending, msg.id)
	if _, token := msg.w.(tokenWrite); !token && errors.Is(msg.w.failure(), apiclient.ErrUnauthorized) {
		return m.handleAuthError(msg.w.failure())
	}
	return msg.w.outcome(m)
}

// say is the outcome of most writes: one line on the status bar, about
// project p.
func (m Model) say(p workflow.Project, kind statusKind, text string) (Model, tea.Cmd) {
	return m.setStatus(m.named(statusMsg{text: text, kind: kind, about: &p}))
}

// named makes a message about a project name it when the user is not
// looking at that project (the result of a write reaching them elsewhere).
func (m Model) named(msg statusMsg) statusMsg {
	if msg.about == nil {
		return msg
	}
	if ps, ok := m.top().(*projectScreen); ok && sameProject(*msg.about, ps.project) {
		return msg
	}
	if name := msg.about.Name(); name != "" && !strings.Contains(msg.text, name) {
		msg.text = name + ": " + msg.text
	}
	return msg
}

// dropStatusElsewhere clears a message about another project than the one
// now open; on the projects list, the message names its project.
func (m Model) dropStatusElsewhere() Model {
	a := m.status.about
	if a == nil {
		return m
	}
	if ps, ok := m.top().(*projectScreen); ok && !sameProject(*a, ps.project) {
		m.status = statusMsg{}
		m.statusSeq++
	} else {
		m.status = m.named(m.status)
	}
	m.resize()
	return m
}
