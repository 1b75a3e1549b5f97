package tui

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
)

// screen is one page of the console. The root owns size, global keys,
// the status bar and dialogs; a screen knows only its own state.
type screen interface {
	Init() tea.Cmd
	Update(msg tea.Msg) (screen, tea.Cmd)
	View(width, height int) string
	Help() helpMap
	// Title names the screen in the status bar ("demo/web-shop").
	Title() string
	// Busy reports a request in flight, for the spinner.
	Busy() bool
	// Capturing reports a focused text field: keys go to it, not to global bindings.
	Capturing() bool
}

// shared is what every screen reads from the root.
type shared struct {
	deps   Deps
	api    API
	styles Styles
	keys   KeyMap
}

func (sh *shared) explain(err error) string {
	return explain.Error(err, explain.Context{Host: sh.deps.Host, Retry: "press r to retry", Login: "log in again"})
}

const statusTTL = 5 * time.Second

// Model is the root of the console.
type Model struct {
	sh      *shared
	stack   []screen
	dialogs []dialog

	width, height int
	isDark        bool
	noColor       bool

	user  *apiclient.User
	token *apiclient.TokenInfo

	status    statusMsg
	statusSeq int

	spinner  spinner.Model
	help     help.Model
	showHelp bool
}

// New builds the console. With no API it opens on the login screen.
func New(deps Deps) Model {
	if deps.Now == nil {
		deps.Now = time.Now
	}
	_, noColor := os.LookupEnv("NO_COLOR")
	sh := &shared{deps: deps, api: deps.API, keys: DefaultKeyMap(), styles: NewStyles(true, noColor)}
	m := Model{sh: sh, isDark: true, noColor: noColor, width: 80, height: 24}
	m.help = help.New()
	m.help.Styles = sh.styles.Help
	m.spinner = spinner.New(spinner.WithSpinner(spinner.Dot), spinner.WithStyle(sh.styles.Spinner))
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
	return m
}

// startWith makes api the console's and opens its first screens.
func (m Model) startWith(api API) (tea.Model, tea.Cmd) {
	m.sh.api = api
	m.user, m.token, m.dialogs = nil, nil, nil
	m.openStart()
	cmds := []tea.Cmd{loadUserCmd(api, m.sh.deps.RequestTimeout)}
	for _, s := range m.stack {
		cmds = append(cmds, s.Init())
	}
	return m, tea.Batch(cmds...)
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

// PendingWrites says what the writes still waiting for the server's answer
// were doing, for the program to report when the console ends under them.
func (m Model) PendingWrites() []string {
	var out []string
	for _, s := range m.stack {
		if w, ok := s.(interface{ pendingWrites() []string }); ok {
			out = append(out, w.pendingWrites()...)
		}
	}
	return out
}

// Init starts the spinner, asks the terminal's background colour, and
// loads the user and the first screen's data together.
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, m.spinner.Tick}
	if m.sh.api == nil && m.sh.deps.Connect != nil {
		cmds = append(cmds, connectCmd(m.sh.deps.Connect, m.sh.deps.RequestTimeout))
	}
	if m.sh.api != nil {
		cmds = append(cmds, loadUserCmd(m.sh.api, m.sh.deps.RequestTimeout))
	}
	for _, s := range m.stack {
		cmds = append(cmds, s.Init())
	}
	return tea.Batch(cmds...)
}

// Update routes: size and colours, then the dialog, then a focused text
// field, then global keys, then the active screen.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.help.SetWidth(msg.Width)
		return m, nil
	case tea.BackgroundColorMsg:
		m.isDark = msg.IsDark()
		m.sh.styles = NewStyles(m.isDark, m.noColor)
		m.help.Styles = m.sh.styles.Help
		m.spinner.Style = m.sh.styles.Spinner
		return m, nil
	case spinner.TickMsg:
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(msg)
		return m, cmd
	case userLoadedMsg:
		if msg.err != nil {
			return m.handleAuthError(msg.err)
		}
		m.user, m.token = msg.user, msg.token
		return m, nil
	case statusMsg:
		return m.setStatus(msg)
	case RetryNotice:
		// Shown until the retry has had time to happen.
		return m.setStatus(statusMsg{text: retryText(msg), kind: statusInfo, ttl: msg.Wait + 500*time.Millisecond})
	case clearStatusMsg:
		if msg.seq == m.statusSeq {
			m.status = statusMsg{}
		}
		return m, nil
	case openDialogMsg:
		m.dialogs = append(m.dialogs, msg.d)
		return m, nil
	case openProjectMsg:
		s := newProjectScreen(m.sh, msg.ref, msg.name)
		m.stack = append(m.stack, s)
		m.status = statusMsg{}
		return m, tea.Batch(s.Init(), m.recordRecent(msg.ref, msg.name))
	case backMsg:
		return m.back()
	case authFailedMsg:
		return m.handleAuthError(msg.err)
	case connectedMsg:
		if msg.err != nil {
			ls := newLoginScreen(m.sh, m.sh.explain(msg.err))
			m.stack = []screen{ls}
			return m, ls.Init()
		}
		return m.startWith(msg.api)
	case loginDoneMsg:
		if msg.err == nil {
			m.sh.deps.Host = msg.host
			next, start := m.startWith(msg.api)
			next, status := next.(Model).setStatus(statusMsg{text: "Logged in to " + msg.host + ".", kind: statusSuccess})
			return next, tea.Batch(start, status)
		}
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.PasteMsg:
		return m.updateTop(msg)
	}
	return m.updateAll(msg)
}

// updateAll hands a result to every open screen: a screen below the top may
// be waiting for it (the project list loading while a project is open), and
// each screen drops answers to requests it did not make.
func (m Model) updateAll(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmds := make([]tea.Cmd, 0, len(m.stack))
	for i, s := range m.stack {
		next, cmd := s.Update(msg)
		m.stack[i] = next
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

func (m Model) updateTop(msg tea.Msg) (tea.Model, tea.Cmd) {
	s, cmd := m.top().Update(msg)
	m.stack[len(m.stack)-1] = s
	return m, cmd
}

func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	k := m.sh.keys
	if msg.String() == "ctrl+c" {
		return m, tea.Quit
	}
	if n := len(m.dialogs); n > 0 {
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
			m.showHelp = false
		}
		return m, nil
	}
	if m.top().Capturing() {
		return m.updateTop(msg)
	}
	switch {
	case key.Matches(msg, k.Quit):
		return m, tea.Quit
	case key.Matches(msg, k.Help):
		m.showHelp = true
		return m, nil
	}
	return m.updateTop(msg)
}

func (m Model) back() (tea.Model, tea.Cmd) {
	if len(m.stack) > 1 {
		m.stack = m.stack[:len(m.stack)-1]
		m.status = statusMsg{}
	}
	return m, nil
}

func (m Model) setStatus(msg statusMsg) (tea.Model, tea.Cmd) {
	m.status = msg
	m.statusSeq++
	if msg.kind == statusError {
		return m, nil // errors stay until something replaces them
	}
	seq, ttl := m.statusSeq, msg.ttl
	if ttl <= 0 {
		ttl = statusTTL
	}
	return m, after(ttl, func(time.Time) tea.Msg { return clearStatusMsg{seq: seq} })
}

// handleAuthError sends a 401 to the login screen when one is available.
func (m Model) handleAuthError(err error) (tea.Model, tea.Cmd) {
	if !errors.Is(err, apiclient.ErrUnauthorized) || m.sh.deps.Login == nil {
		return m.setStatus(statusMsg{text: m.sh.explain(err), kind: statusError})
	}
	m.sh.api = nil
	m.user, m.token = nil, nil
	m.dialogs = nil
	ls := newLoginScreen(m.sh, m.sh.explain(err))
	m.stack = []screen{ls}
	m.status = statusMsg{}
	return m, ls.Init()
}

// recordRecent remembers the project by path when it is known, since a
// path reads better in the list than an ID.
func (m Model) recordRecent(ref apiclient.ProjectRef, name string) tea.Cmd {
	f, host := m.sh.deps.ProjectOpened, m.sh.deps.Host
	if f == nil {
		return nil
	}
	project := ref.String()
	if p, err := apiclient.ParseProjectRef(name); err == nil && p.Path != "" {
		project = p.Path
	}
	return func() tea.Msg { f(host, project); return nil }
}

// View draws the active screen, or a dialog or the full help over it,
// above a help bar and a status bar.
func (m Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "errtrack"
	return v
}

func (m Model) render() string {
	w, h := max(m.width, 20), max(m.height, 4)
	msg := m.messageLines(w, h)
	bodyH := h - 2 - len(msg)
	var body string
	switch {
	case len(m.dialogs) > 0:
		d := m.dialogs[len(m.dialogs)-1]
		body = lipgloss.Place(w, bodyH, lipgloss.Center, lipgloss.Center, d.view(m.sh.styles, w))
	case m.showHelp:
		full := m.help
		full.ShowAll = true
		txt := m.sh.styles.Title.Render("Keys") + "\n\n" + full.View(m.fullHelp())
		body = lipgloss.Place(w, bodyH, lipgloss.Center, lipgloss.Center, m.sh.styles.Dialog.Render(txt))
	default:
		body = m.top().View(w, bodyH)
	}
	out := fitLines(body, w, bodyH)
	for _, l := range msg {
		out += "\n" + l
	}
	return out + "\n" + m.helpBar(w) + "\n" + m.statusBar(w)
}

// messageLines is the status message, wrapped to at most 3 lines above the
// help bar: error advice is often longer than one line.
func (m Model) messageLines(w, h int) []string {
	if m.status.text == "" || h < 8 {
		return nil
	}
	st := m.sh.styles
	style := st.Info
	switch m.status.kind {
	case statusError:
		style = st.Error
	case statusSuccess:
		style = st.Success
	}
	wrapped := lipgloss.NewStyle().Width(w - 2).Render(clean(m.status.text))
	lines := strings.Split(wrapped, "\n")
	if len(lines) > 3 {
		lines = lines[:3]
		lines[2] = truncate(lines[2]+" …", w-2)
	}
	for i, l := range lines {
		lines[i] = " " + style.Render(strings.TrimRight(l, " "))
	}
	return lines
}

func (m Model) helpBar(w int) string {
	var hm helpMap
	switch {
	case len(m.dialogs) > 0:
		hm = m.dialogs[len(m.dialogs)-1].help(m.sh.keys)
	case m.showHelp:
		hm = helpMap{short: []key.Binding{key.NewBinding(key.WithKeys("?"), key.WithHelp("?/esc", "close help"))}}
	default:
		hm = m.top().Help()
		if !m.top().Capturing() {
			hm.short = append(append([]key.Binding{}, hm.short...), m.sh.keys.Help, m.sh.keys.Quit)
		}
	}
	hb := m.help
	hb.ShowAll = false
	hb.SetWidth(w)
	return truncate(hb.View(hm), w)
}

func (m Model) fullHelp() helpMap {
	k := m.sh.keys
	hm := m.top().Help()
	full := append([][]key.Binding{}, hm.full...)
	full = append(full, []key.Binding{k.Help, k.Back, k.Quit})
	return helpMap{full: full}
}

func (m Model) statusBar(w int) string {
	st := m.sh.styles
	// Most specific first, so a narrow bar cuts the host rather than the project.
	var parts []string
	if t := m.top().Title(); t != "" {
		parts = append(parts, clean(t))
	}
	if m.user != nil {
		parts = append(parts, "@"+clean(m.user.Username))
	}
	parts = append(parts, m.sh.deps.Host)
	left := strings.Join(parts, " │ ")
	var right []string
	if m.top().Busy() {
		right = append(right, m.spinner.View())
	}
	if m.sh.deps.Demo {
		right = append(right, st.StatusDemo.Render("DEMO (mock server)"))
	}
	if warn := m.tokenWarning(); warn != "" {
		right = append(right, st.Warning.Render(warn))
	}
	r := strings.Join(right, "  ")
	line := " " + left
	gap := w - lipgloss.Width(r) - 1
	line = pad(truncate(line, max(gap-1, 1)), max(gap, 1)) + r + " "
	return st.StatusBar.Render(pad(line, w))
}

// tokenWarning is set when the token expires within 7 days.
func (m Model) tokenWarning() string {
	if m.token == nil {
		return ""
	}
	exp, ok := m.token.Expiry()
	if !ok {
		return ""
	}
	now := m.sh.deps.Now()
	days := int(exp.Sub(time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)).Hours() / 24)
	switch {
	case days > 7:
		return ""
	case days <= 0:
		return "⚠ token expires today"
	case days == 1:
		return "⚠ token expires tomorrow"
	}
	return fmt.Sprintf("⚠ token expires in %d days", days)
}

func retryText(n RetryNotice) string {
	secs := int(math.Ceil(n.Wait.Seconds()))
	switch {
	case n.RateLimited:
		return fmt.Sprintf("Rate limited by the server; retrying in %d s…", secs)
	case n.StatusCode == 0:
		return fmt.Sprintf("Could not reach the server; retrying in %d s…", secs)
	}
	return fmt.Sprintf("The server answered HTTP %d; retrying in %d s…", n.StatusCode, secs)
}
