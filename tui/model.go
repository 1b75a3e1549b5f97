package tui

import (
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
)

// Model is the root of the console: it owns the screens, the dialogs, the
// status line, the window size and the writes in flight. This file holds
// its state and the few changes every part of the root makes; app.go
// routes, app_*.go do the root's other jobs (keys, writes, the session,
// the frame, what is said on quitting) and chrome_*.go draw its bars.
type Model struct {
	sh      *shared
	stack   []screen
	dialogs []dialog

	width, height int
	isDark        bool
	noColor       bool

	status    statusMsg
	statusSeq int

	spin     spinner
	spinning bool // a tick is scheduled: only while something is in flight
	showHelp bool
	// helpOffset is the first line of the help shown on a short terminal.
	helpOffset int
	// log, when open, is the request log drawn over the screens.
	log *logPane
}

// New builds the console. With no API it opens on the login screen.
func New(deps Deps) Model {
	if deps.Clock == nil {
		deps.Clock = realClock{}
	}
	_, noColor := os.LookupEnv("NO_COLOR")
	// Accessible: no animation, no colour; every state is in words already.
	noColor = noColor || deps.Accessible
	keys := DefaultKeyMap()
	if k, err := keys.Rebind(deps.Keys); err == nil {
		keys = k
	}
	isDark := deps.Theme == ThemeDark || (deps.Theme != ThemeLight && !deps.LightBackground)
	sh := &shared{deps: deps, api: deps.API, keys: keys, styles: NewStyles(isDark, noColor), clock: deps.Clock, pending: map[uint64]write{}}
	m := Model{sh: sh, isDark: isDark, noColor: noColor, width: 80, height: 24}
	if deps.Notice != "" {
		m.status = statusMsg{text: deps.Notice, kind: statusInfo}
	}
	switch {
	case sh.api != nil:
		m.openStart()
	case deps.Connect != nil:
		m.stack = []screen{startScreen{sh: sh}}
	default:
		m.stack = []screen{newLoginScreen(sh, deps.LoginReason)}
	}
	m.resize()
	return m
}

// openStart shows the projects, and the --project one on top of them.
func (m *Model) openStart() {
	m.stack = []screen{newProjectsScreen(m.sh)}
	if p := m.sh.deps.Project; p != "" {
		if ref, err := apiclient.ParseProjectRef(p); err == nil {
			m.stack = append(m.stack, newProjectScreen(m.sh, ref, ref.String()))
		} else {
			m.status = statusMsg{text: clean(err.Error()), kind: statusError}
		}
	}
}

func (m Model) top() screen { return m.stack[len(m.stack)-1] }

func (m Model) busy() bool { return m.top().Busy() || len(m.sh.pending) > 0 || m.sh.planning != 0 }

// updateAll hands a result to every open screen: a screen below the top may
// be waiting for it (the project list loading while a project is open).
func (m Model) updateAll(msg tea.Msg) (Model, tea.Cmd) {
	cmds := make([]tea.Cmd, 0, len(m.stack))
	for i, s := range m.stack {
		next, cmd := s.Update(msg)
		m.stack[i] = next
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

func (m Model) updateTop(msg tea.Msg) (Model, tea.Cmd) {
	s, cmd := m.top().Update(msg)
	m.stack[len(m.stack)-1] = s
	return m, cmd
}

func (m Model) setStatus(msg statusMsg) (Model, tea.Cmd) {
	m.status = msg
	m.statusSeq++
	m.resize()
	if msg.kind == statusError {
		return m, nil // errors stay until something replaces them
	}
	ttl := msg.ttl
	if ttl <= 0 {
		ttl = statusTTL
	}
	return m, m.sh.clock.After(ttl, clearStatusMsg{seq: m.statusSeq})
}

// resize gives every screen the lines left between the status message and
// the two bars at the bottom.
func (m *Model) resize() {
	w, bodyH := m.bodySize()
	for _, s := range m.stack {
		s.SetSize(w, bodyH)
	}
	if m.log != nil {
		m.log.setSize(w, bodyH)
	}
}

// bodySize is the room between the top of the terminal and the messages,
// help bar and status bar.
func (m Model) bodySize() (w, bodyH int) {
	w, h := max(m.width, 20), max(m.height, 4)
	return w, h - 2 - len(statusLines(m.sh.styles, m.status, w, h))
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
