package tui

// The root's router: every message reaches the part of the console it is
// for from here.

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Init asks the terminal's background colour, starts the spinner, and loads
// the token's status and the first screens' data together.
func (m Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.themeAsked() {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if m.sh.api == nil && m.sh.deps.Connect != nil {
		cmds = append(cmds, connectCmd(m.sh.ctx(), m.sh.deps.Connect, m.sh.deps.RequestTimeout))
	}
	if m.sh.api != nil {
		cmds = append(cmds, loadTokenCmd(m.sh.ctx(), m.sh.api, m.sh.deps.RequestTimeout))
	}
	for _, s := range m.stack {
		cmds = append(cmds, s.Init())
	}
	return tea.Batch(cmds...)
}

// Update routes: size and colours, results for the root (writes, token,
// login), then keys through the dialog, the help page and global keys to the
// top screen; other results go to every screen, each dropping answers to
// requests it did not make.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.update(msg)
	nm := next.(Model)
	// The spinner ticks only while something is in flight: an idle console
	// schedules nothing.
	if !nm.spinning && nm.busy() && !nm.sh.deps.Accessible {
		nm.spinning = true
		cmd = tea.Batch(cmd, nm.sh.clock.After(spinnerInterval, spinnerTickMsg{}))
	}
	return nm, cmd
}

func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resize()
		return m, nil
	case tea.BackgroundColorMsg:
		if !m.themeAsked() {
			return m, nil // the user chose the palette
		}
		m.isDark = msg.IsDark()
		m.sh.styles = NewStyles(m.isDark, m.noColor)
		return m, nil
	case spinnerTickMsg:
		if !m.busy() {
			m.spinning = false
			return m, nil
		}
		m.spin.tick()
		return m, m.sh.clock.After(spinnerInterval, spinnerTickMsg{})
	case tokenLoadedMsg:
		return m.tokenLoaded(msg)
	case statusMsg:
		return m.setStatus(m.named(msg))
	case RetryNotice:
		// Shown until the retry has had time to happen.
		return m.setStatus(statusMsg{text: retryText(msg), kind: statusInfo, ttl: msg.Wait + 500*time.Millisecond})
	case clearStatusMsg:
		if msg.seq == m.statusSeq {
			m.status = statusMsg{}
			m.resize()
		}
		return m, nil
	case openDialogMsg:
		d := msg.d
		var tick tea.Cmd
		if msg.async {
			d = d.openAsync(m.sh.clock.Now())
			tick = m.sh.clock.After(gracePeriod, graceTickMsg{})
		}
		m.dialogs = append(m.dialogs, d)
		return m, tick
	case graceTickMsg:
		return m, nil // drawn again: the buttons may be armed now
	case showHelpMsg:
		m.showHelp = true
		return m, nil
	case RequestLogged:
		if m.log != nil {
			m.log.refresh()
		}
		return m, nil
	case openProjectMsg:
		s := newProjectScreen(m.sh, msg.ref, msg.name)
		m.stack = append(m.stack, s)
		m.resize()
		return m.dropStatusElsewhere(), s.Init()
	case backMsg:
		if len(m.stack) > 1 {
			m.stack = m.stack[:len(m.stack)-1]
		}
		return m.dropStatusElsewhere(), nil
	case startWriteMsg:
		return m.startWrite(msg.w)
	case writeDoneMsg:
		next, cmd := m.apply(m.writeDone(msg))
		all, screens := next.updateAll(msg)
		all, quit := all.followQuitQuestion()
		return all, tea.Batch(cmd, screens, quit)
	case askAtKeyMsg:
		return m.askAtKey(msg)
	case planBulkMsg:
		return m.planBulk(msg)
	case stopBulkMsg:
		return m.stopBulk(msg)
	case bulkPlannedMsg:
		return m.bulkPlanned(msg)
	case startBulkMsg:
		return m.startBulk(msg)
	case bulkBegunMsg:
		return m.bulkBegun(msg)
	case bulkEventMsg:
		return m.bulkEvent(msg)
	case bulkBatchMsg:
		return m.bulkBatch(msg)
	case bulkEndedMsg:
		next, cmd := m.bulkEnded(msg)
		next, quit := next.followQuitQuestion()
		return next, tea.Batch(cmd, quit)
	case copyDSNMsg:
		return m, copyDSN(m.sh, msg.k)
	case copyTextMsg:
		if msg.refused != "" {
			return m, statusCmd(statusError, msg.refused)
		}
		return m, m.sh.copyText(msg.text, msg.what)
	case osc52Msg:
		return m, osc52(msg)
	case tokenRotatedMsg:
		return m.tokenRotated(msg)
	case authFailedMsg:
		return m.handleAuthError(msg.err)
	case loggedOutMsg:
		return m.loggedOut(msg.why)
	case connectedMsg:
		return m.connected(msg)
	case loginDoneMsg:
		if next, cmd, ok := m.loginDone(msg); ok {
			return next, cmd
		}
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseClickMsg:
		return m.mouse(msg.Mouse(), false)
	case tea.MouseWheelMsg:
		return m.mouse(msg.Mouse(), true)
	case tea.PasteMsg:
		return m.paste(msg)
	}
	return m.updateAll(msg)
}

// apply applies an outcome's messages at once, in order, as they would be
// if they came one by one.
func (m Model) apply(out outcome) (Model, tea.Cmd) {
	cmds := make([]tea.Cmd, 0, len(out))
	for _, msg := range out {
		next, cmd := m.update(msg)
		m = next.(Model)
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

// themeAsked: the palette follows the terminal's background (no --theme).
func (m Model) themeAsked() bool {
	t := m.sh.deps.Theme
	return t != ThemeDark && t != ThemeLight
}
