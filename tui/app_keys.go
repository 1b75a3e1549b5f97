package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// handleKey routes a key: the open dialog first, then the help page, the
// request log, the keys that work everywhere, and the top screen.
func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.sh.keys
	if key.Matches(msg, k.ForceQuit) {
		return m, tea.Quit
	}
	if n := len(m.dialogs); n > 0 {
		if now := m.sh.clock.Now(); !m.dialogs[n-1].armed(now) {
			// A question that opened on a result while the user was typing
			// takes none of those keys: they go on to a text field being
			// typed in, or nowhere, and the grace starts again.
			m.dialogs[n-1] = m.dialogs[n-1].typedAt(now)
			tick := m.sh.clock.After(gracePeriod, graceTickMsg{})
			if m.top().Capturing() {
				next, cmd := m.updateTop(msg)
				return next, tea.Batch(cmd, tick)
			}
			return m, tick
		}
		w, bodyH := m.bodySize()
		if d, ok := m.dialogs[n-1].scroll(msg, k, m.sh.styles, w, bodyH); ok {
			m.dialogs[n-1] = d
			return m, nil
		}
		d, cmd, done := m.dialogs[n-1].update(msg, k)
		if done {
			m.dialogs = m.dialogs[:n-1]
		} else {
			m.dialogs[n-1] = d
		}
		return m, cmd
	}
	if m.showHelp {
		if key.Matches(msg, k.Help, k.Back, k.Quit) {
			m.showHelp, m.helpOffset = false, 0
		}
		w, bodyH := m.bodySize()
		m.helpOffset, _ = scrollBy(msg, k, m.helpOffset, len(m.helpLines(w-4)), bodyH-2)
		return m, nil
	}
	if m.log != nil {
		cmd, done := m.log.update(msg)
		if done {
			m.log = nil
			if m.status.inLog {
				m.status = statusMsg{}
				m.statusSeq++
				m.resize()
			}
		}
		return m, cmd
	}
	if key.Matches(msg, k.TextRequestLog) || (!m.top().Capturing() && key.Matches(msg, k.RequestLog)) {
		w, bodyH := m.bodySize()
		m.log = newLogPane(m.sh, w, bodyH)
		return m, nil
	}
	if key.Matches(msg, k.RotateToken) && m.sh.api != nil && m.sh.token.User != nil {
		return m, offerTokenRotation(m.sh)
	}
	if m.top().Capturing() {
		return m.updateTop(msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		if d := m.quitQuestion(); d != nil {
			m.dialogs = append(m.dialogs, *d)
			return m, nil
		}
		return m, tea.Quit
	case key.Matches(msg, k.Help):
		m.showHelp = true
		return m, nil
	}
	return m.updateTop(msg)
}

// mouse hands a click or a wheel turn to what is drawn: the request log, or
// the active screen. Dialogs and the help page take keys only.
func (m Model) mouse(ev tea.Mouse, wheel bool) (tea.Model, tea.Cmd) {
	if len(m.dialogs) > 0 || m.showHelp || (!wheel && ev.Button != tea.MouseLeft) {
		return m, nil
	}
	if m.log != nil {
		return m, m.log.mouse(ev, wheel)
	}
	if s, ok := m.top().(mouser); ok {
		return m, s.mouse(ev, wheel)
	}
	return m, nil
}

// paste goes to a question asking for text, or to the top screen; another
// question drops it.
func (m Model) paste(msg tea.PasteMsg) (tea.Model, tea.Cmd) {
	if n := len(m.dialogs); n > 0 {
		if m.dialogs[n-1].ask != nil {
			d, cmd, _ := m.dialogs[n-1].answer(msg, m.sh.keys)
			m.dialogs[n-1] = d
			return m, cmd
		}
		return m, nil
	}
	return m.updateTop(msg)
}
