package tui

import (
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/internal/tokens"
)

// The session: the token the console works with, from the first connection
// through logging in, a refused token and a rotated one.

// startWith makes api the console's and opens its first screens.
func (m Model) startWith(api API) (Model, tea.Cmd) {
	m.sh.api = api
	m.sh.token = tokens.TokenStatus{}
	m.dialogs = nil
	m.openStart()
	m.resize()
	cmds := []tea.Cmd{loadTokenCmd(m.sh.ctx(), api, m.sh.deps.RequestTimeout)}
	for _, s := range m.stack {
		cmds = append(cmds, s.Init())
	}
	return m, tea.Batch(cmds...)
}

// tokenLoaded takes the token's user, scopes and expiry. Only a refused
// token is news here: the screens show any other failure where it happens,
// once.
func (m Model) tokenLoaded(msg tokenLoadedMsg) (Model, tea.Cmd) {
	if m.sh.loginHelps(msg.err) {
		return m.handleAuthError(msg.err)
	}
	if msg.err != nil {
		return m, nil
	}
	m.sh.token = msg.st
	m.resize() // a read-only note takes a line
	return m, nil
}

// connected starts with the token Deps.Connect found, or asks to log in.
func (m Model) connected(msg connectedMsg) (Model, tea.Cmd) {
	if msg.err != nil {
		ls := newLoginScreen(m.sh, m.sh.explain(msg.err))
		m.stack = []screen{ls}
		m.resize()
		return m, ls.Init()
	}
	return m.startWith(msg.api)
}

// loginDone starts with a token that worked; false leaves a failure to the
// login screen.
func (m Model) loginDone(msg loginDoneMsg) (Model, tea.Cmd, bool) {
	var notStored *tokens.NotStoredError
	switch {
	case msg.err == nil:
		m.sh.deps.Host = msg.host
		next, start := m.startWith(msg.api)
		next, status := next.setStatus(statusMsg{text: "Logged in to " + msg.host + ".", kind: statusSuccess})
		return next, tea.Batch(start, status, m.hostWorked(msg.host)), true
	case errors.As(msg.err, &notStored) && msg.api != nil:
		// The token works; only the keyring failed. Work with it now,
		// and say how to keep it.
		m.sh.deps.Host = msg.host
		next, start := m.startWith(msg.api)
		next, status := next.setStatus(statusMsg{kind: statusError, text: "Logged in to " + msg.host +
			" for this session only: the system keyring did not take the token: " + strings.TrimSuffix(clean(notStored.Err.Error()), ".") +
			". To use it next time, set GITLAB_TOKEN to it, or fix the keyring and log in again."})
		return next, tea.Batch(start, status, m.hostWorked(msg.host)), true
	}
	return m, nil, false
}

// tokenRotated switches the console to the rotated token and reads its
// status again.
func (m Model) tokenRotated(msg tokenRotatedMsg) (Model, tea.Cmd) {
	m.sh.api = msg.api
	m, status := m.setStatus(statusMsg{text: msg.text, kind: statusSuccess})
	return m, tea.Batch(status, loadTokenCmd(m.sh.ctx(), msg.api, m.sh.deps.RequestTimeout))
}

// loggedOut leaves the console without a token: the login screen says why.
func (m Model) loggedOut(why string) (Model, tea.Cmd) {
	ls := newLoginScreen(m.sh, why)
	m.sh.api = nil
	m.stack = []screen{ls}
	m.dialogs = nil
	m.resize()
	return m, ls.Init()
}

// handleAuthError sends a 401 to the login screen when logging in can help.
// A token from GITLAB_TOKEN is fixed in the environment, so the error says so
// and stays on screen instead.
func (m Model) handleAuthError(err error) (Model, tea.Cmd) {
	if !gitlabRefused(err) || m.sh.deps.Login == nil || m.sh.deps.TokenEnv != "" {
		return m.setStatus(statusMsg{text: m.sh.explain(err), kind: statusError})
	}
	m.sh.api = nil
	m.sh.token = tokens.TokenStatus{}
	m.dialogs = nil
	ls := newLoginScreen(m.sh, m.sh.explain(err))
	m.stack = []screen{ls}
	m.status = statusMsg{}
	m.resize()
	return m, ls.Init()
}

func (m Model) hostWorked(host string) tea.Cmd {
	if f := m.sh.deps.HostWorked; f != nil {
		return sideEffect(func() { f(host) })
	}
	return nil
}
