package tui

import (
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/workflow"
)

// shared is what every screen reads from the root. Only the root changes it.
type shared struct {
	deps    Deps
	api     API
	styles  Styles
	keys    KeyMap
	clock   Clock
	token   workflow.TokenStatus
	pending map[uint64]write // writes in flight, by id
	// lastBulk is the report of the last bulk change, reopened with Bulk.
	lastBulk dialog
	hasBulk  bool
	// planning is the bulk plan asked for last (0: none): an earlier
	// one's answer is dropped. bulk is the bulk change under way.
	planning uint64
	bulk     *bulkRun
	// lastVariable is the variable the last bulk rotation or test event
	// used, offered again.
	lastVariable string
}

func (sh *shared) explain(err error) string {
	return sh.explainRetry(err, "press "+keyName(sh.keys.Refresh)+" to retry")
}

// explainRetry words err with retry as the way to try again from here: a
// screen where r is a letter of a field says another key.
func (sh *shared) explainRetry(err error, retry string) string {
	return explain.Error(err, explain.Context{Host: sh.deps.Host, Retry: retry, Login: "log in again", TokenEnv: sh.deps.TokenEnv})
}

// tokenStore names where the console's token is kept.
func (sh *shared) tokenStore() string {
	if sh.deps.Demo {
		return "memory (the demo keeps nothing)"
	}
	return "the system keyring"
}

// userName is the token's user, "" until it is known.
func (sh *shared) userName() string {
	if sh.token.User == nil {
		return ""
	}
	return sh.token.User.Username
}

// rotations is the ledger as the console's own rotations write it.
func (sh *shared) rotations() *workflow.Rotations {
	return sh.deps.Rotations.WithFrontEnd(workflow.FrontEndConsole).WithUser(sh.userName())
}

// readOnly: the token can read but not write (a read_api token).
func (sh *shared) readOnly() bool { return sh.token.ReadOnly() }

// failed reports err in the status line, or sends a 401 to the login screen.
func (sh *shared) failed(err error) tea.Cmd {
	if errors.Is(err, apiclient.ErrUnauthorized) {
		return msgCmd(authFailedMsg{err})
	}
	return statusCmd(statusError, sh.explain(err))
}

// failedOnce reports a failed load once: a pane with nothing earlier to show
// draws the error itself, so only a 401 needs more.
func (sh *shared) failedOnce(err error, paneShows bool) tea.Cmd {
	if paneShows && !sh.loginHelps(err) {
		return nil
	}
	return sh.failed(err)
}

// loginHelps reports a refused token the login screen can replace: not one
// from the environment, which the pane's error tells how to change.
func (sh *shared) loginHelps(err error) bool {
	return errors.Is(err, apiclient.ErrUnauthorized) && sh.deps.TokenEnv == ""
}

const statusTTL = 5 * time.Second

// Model is the root of the console: it owns the screens, the dialogs, the
// status line, the window size and the writes in flight.
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
	help     help.Model
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
	sh := &shared{deps: deps, api: deps.API, keys: keys, styles: NewStyles(true, noColor), clock: deps.Clock, pending: map[uint64]write{}}
	m := Model{sh: sh, isDark: true, noColor: noColor, width: 80, height: 24}
	m.help = help.New()
	m.help.Styles = sh.styles.Help
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

// startWith makes api the console's and opens its first screens.
func (m Model) startWith(api API) (Model, tea.Cmd) {
	m.sh.api = api
	m.sh.token = workflow.TokenStatus{}
	m.dialogs = nil
	m.openStart()
	m.resize()
	cmds := []tea.Cmd{loadTokenCmd(api, m.sh.deps.RequestTimeout)}
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
	ids := make([]uint64, 0, len(m.sh.pending))
	for id := range m.sh.pending {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = m.sh.pending[id].pending()
	}
	return out
}

// RotationsAtQuestion are the rotations whose question was open when the
// console ended: their new key exists and the old one stays, for the
// program to say so.
func (m Model) RotationsAtQuestion() []workflow.Rotation {
	var out []workflow.Rotation
	for _, d := range m.dialogs {
		if msg, ok := d.onYes.(startWriteMsg); ok {
			if w, ok := msg.w.(rotationWrite); ok && w.r.New != nil {
				out = append(out, w.r.Stop())
			}
		}
	}
	return out
}

// Init asks the terminal's background colour, starts the spinner, and loads
// the token's status and the first screens' data together.
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor}
	if m.sh.api == nil && m.sh.deps.Connect != nil {
		cmds = append(cmds, connectCmd(m.sh.deps.Connect, m.sh.deps.RequestTimeout))
	}
	if m.sh.api != nil {
		cmds = append(cmds, loadTokenCmd(m.sh.api, m.sh.deps.RequestTimeout))
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

func (m Model) busy() bool { return m.top().Busy() || len(m.sh.pending) > 0 || m.sh.planning != 0 }

func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.resize()
		return m, nil
	case tea.BackgroundColorMsg:
		m.isDark = msg.IsDark()
		m.sh.styles = NewStyles(m.isDark, m.noColor)
		m.help.Styles = m.sh.styles.Help
		return m, nil
	case spinnerTickMsg:
		if !m.busy() {
			m.spinning = false
			return m, nil
		}
		m.spin.tick()
		return m, m.sh.clock.After(spinnerInterval, spinnerTickMsg{})
	case tokenLoadedMsg:
		// Only a refused token is news here: the screens show any other
		// failure where it happens, once.
		if m.sh.loginHelps(msg.err) {
			return m.handleAuthError(msg.err)
		}
		if msg.err != nil {
			return m, nil
		}
		m.sh.token = msg.st
		m.resize() // a read-only note takes a line
		return m, nil
	case statusMsg:
		return m.setStatus(msg)
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
		if msg.async {
			d = d.openAsync(m.sh.clock.Now())
		}
		m.dialogs = append(m.dialogs, d)
		return m, nil
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
	case planBulkMsg:
		return m.planBulk(msg)
	case bulkPlannedMsg:
		return m.bulkPlanned(msg)
	case startBulkMsg:
		return m.startBulk(msg)
	case bulkBegunMsg:
		return m.bulkBegun(msg)
	case bulkEventMsg:
		return m.bulkEvent(msg)
	case bulkEndedMsg:
		return m.bulkEnded(msg)
	case writeDoneMsg:
		next, cmd := m.writeDone(msg)
		all, screens := next.updateAll(msg)
		return all, tea.Batch(cmd, screens)
	case copyDSNMsg:
		return m, copyDSN(m.sh, msg.k)
	case osc52Msg:
		return m, osc52(msg)
	case authFailedMsg:
		return m.handleAuthError(msg.err)
	case connectedMsg:
		if msg.err != nil {
			ls := newLoginScreen(m.sh, m.sh.explain(msg.err))
			m.stack = []screen{ls}
			m.resize()
			return m, ls.Init()
		}
		return m.startWith(msg.api)
	case loginDoneMsg:
		var notStored *workflow.NotStoredError
		switch {
		case msg.err == nil:
			m.sh.deps.Host = msg.host
			next, start := m.startWith(msg.api)
			next, status := next.setStatus(statusMsg{text: "Logged in to " + msg.host + ".", kind: statusSuccess})
			return next, tea.Batch(start, status, m.hostWorked(msg.host))
		case errors.As(msg.err, &notStored) && msg.api != nil:
			// The token works; only the keyring failed. Work with it now,
			// and say how to keep it.
			m.sh.deps.Host = msg.host
			next, start := m.startWith(msg.api)
			next, status := next.setStatus(statusMsg{kind: statusError, text: "Logged in to " + msg.host +
				" for this session only: the system keyring did not take the token (" + clean(notStored.Err.Error()) +
				"). To use it next time, set GITLAB_TOKEN to it, or fix the keyring and log in again."})
			return next, tea.Batch(start, status, m.hostWorked(msg.host))
		}
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.MouseClickMsg:
		return m.mouse(msg.Mouse(), false)
	case tea.MouseWheelMsg:
		return m.mouse(msg.Mouse(), true)
	case tea.PasteMsg:
		if n := len(m.dialogs); n > 0 {
			// A question asking for text takes the paste; another drops it.
			if m.dialogs[n-1].ask != nil {
				d, cmd, _ := m.dialogs[n-1].answer(msg, m.sh.keys)
				m.dialogs[n-1] = d
				return m, cmd
			}
			return m, nil
		}
		return m.updateTop(msg)
	}
	return m.updateAll(msg)
}

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
			if m.top().Capturing() {
				return m.updateTop(msg)
			}
			return m, nil
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
		}
		return m, cmd
	}
	if key.Matches(msg, k.TextRequestLog) || (!m.top().Capturing() && key.Matches(msg, k.RequestLog)) {
		w, h := max(m.width, 20), max(m.height, 4)
		m.log = newLogPane(m.sh, w, h-2-len(m.messageLines(w, h)))
		return m, nil
	}
	if key.Matches(msg, k.RotateToken) && m.sh.api != nil && m.sh.token.User != nil {
		return m.offerTokenRotation()
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

// handleAuthError sends a 401 to the login screen when logging in can help.
// A token from GITLAB_TOKEN is fixed in the environment, so the error says so
// and stays on screen instead.
func (m Model) handleAuthError(err error) (Model, tea.Cmd) {
	if !errors.Is(err, apiclient.ErrUnauthorized) || m.sh.deps.Login == nil || m.sh.deps.TokenEnv != "" {
		return m.setStatus(statusMsg{text: m.sh.explain(err), kind: statusError})
	}
	m.sh.api = nil
	m.sh.token = workflow.TokenStatus{}
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

// resize gives every screen the lines left between the status message and
// the two bars at the bottom.
func (m *Model) resize() {
	w, h := max(m.width, 20), max(m.height, 4)
	bodyH := h - 2 - len(m.messageLines(w, h))
	for _, s := range m.stack {
		s.SetSize(w, bodyH)
	}
	if m.log != nil {
		m.log.setSize(w, bodyH)
	}
}

// View draws the active screen, or a dialog or the full help over it,
// above a help bar and a status bar.
func (m Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	// Clicks and the wheel only: a drag with Shift held still selects text
	// in most terminals.
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "errtrack"
	return v
}

// bodySize is the room between the top of the terminal and the messages,
// help bar and status bar.
func (m Model) bodySize() (w, bodyH int) {
	w, h := max(m.width, 20), max(m.height, 4)
	return w, h - 2 - len(m.messageLines(w, h))
}

func (m Model) render() string {
	w, h := max(m.width, 20), max(m.height, 4)
	msg := m.messageLines(w, h)
	bodyH := h - 2 - len(msg)
	var body string
	switch {
	case len(m.dialogs) > 0:
		// The dialog over its screen, dimmed: the user keeps their context.
		d := m.dialogs[len(m.dialogs)-1]
		under := m.top().View()
		if m.log != nil {
			under = m.log.view()
		}
		body = overlay(m.sh.styles, fitLines(under, w, bodyH), d.view(m.sh.styles, w, bodyH), w, bodyH)
	case m.log != nil:
		body = m.log.view()
	case m.showHelp:
		body = lipgloss.Place(w, bodyH, lipgloss.Center, lipgloss.Center, m.sh.styles.Dialog.Render(m.helpOverlay(w-4, bodyH-2)))
	default:
		body = m.top().View()
	}
	out := fitLines(body, w, bodyH)
	for _, l := range msg {
		out += "\n" + l
	}
	return out + "\n" + m.helpBar(w) + "\n" + m.statusBar(w)
}

// overlay draws box centred over under, which is dimmed (its colours
// dropped, faint) so the box stands out.
func overlay(st Styles, under, box string, w, h int) string {
	lines := strings.Split(ansi.Strip(under), "\n")
	for i, l := range lines {
		lines[i] = st.Dimmed.Render(l)
	}
	x := max((w-lipgloss.Width(box))/2, 0)
	y := max((h-lipgloss.Height(box))/2, 0)
	c := lipgloss.NewCanvas(w, h)
	c.Compose(lipgloss.NewCompositor(lipgloss.NewLayer(strings.Join(lines, "\n")), lipgloss.NewLayer(box).X(x).Y(y).Z(1)))
	return c.Render()
}

// messageLines is the status message, wrapped between words to at most 3
// lines above the help bar: error advice is often longer than one line.
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
	lines := wrap(clean(m.status.text), w-2)
	if len(lines) > 3 {
		lines = lines[:3]
		lines[2] = truncate(lines[2]+" …", w-2)
	}
	for i, l := range lines {
		lines[i] = " " + style.Render(l)
	}
	return lines
}

// helpBar shows the keys that act now. When they do not fit, the screen's
// last ones go first: "? help" and the way to quit always show.
func (m Model) helpBar(w int) string {
	k := m.sh.keys
	var keys []key.Binding
	switch {
	case len(m.dialogs) > 0:
		keys = m.dialogs[len(m.dialogs)-1].help(k).short
	case m.showHelp:
		keys = []key.Binding{key.NewBinding(key.WithKeys("?"), key.WithHelp("?/esc", "close help"))}
	case m.log != nil:
		keys = append(m.log.help().short, k.ForceQuit)
	default:
		keys = m.top().Help().short
		switch {
		case !m.top().Capturing():
			keys = append(append([]key.Binding{}, keys...), k.Help, k.Quit)
		case m.isProjects():
			keys = append(append([]key.Binding{}, keys...), k.Help, k.ForceQuit)
		default:
			keys = append(append([]key.Binding{}, keys...), k.ForceQuit)
		}
	}
	st := m.sh.styles.Help
	item := func(b key.Binding) string {
		return st.ShortKey.Render(b.Help().Key) + " " + st.ShortDesc.Render(b.Help().Desc)
	}
	sep := st.ShortSeparator.Render(" • ")
	fixed := min(2, len(keys)) // help and quit, kept whatever the width
	screenKeys, tail := keys[:len(keys)-fixed], keys[len(keys)-fixed:]
	for n := len(screenKeys); ; n-- {
		parts := make([]string, 0, n+fixed)
		for _, b := range append(screenKeys[:n:n], tail...) {
			parts = append(parts, item(b))
		}
		line := strings.Join(parts, sep)
		if lipgloss.Width(line) <= w || n == 0 {
			return truncate(line, w)
		}
	}
}

func (m Model) isProjects() bool {
	_, ok := m.top().(*projectsScreen)
	return ok
}

// helpLines list every key once, under headings: this screen's, then the
// ones that work everywhere, then the mouse.
func (m Model) helpLines(width int) []string {
	st := m.sh.styles
	full := m.fullHelp().full
	screenKeys := full[:len(full)-1]
	seen := map[string]bool{}
	keyW := 0
	for _, col := range full {
		for _, b := range col {
			keyW = max(keyW, lipgloss.Width(b.Help().Key))
		}
	}
	var lines []string
	section := func(title string, cols ...[]key.Binding) {
		var rows []string
		for _, col := range cols {
			for _, b := range col {
				h := b.Help()
				if h.Key == "" || seen[h.Key] {
					continue
				}
				seen[h.Key] = true
				rows = append(rows, "  "+st.Help.FullKey.Render(pad(h.Key, keyW))+"  "+st.Help.FullDesc.Render(h.Desc))
			}
		}
		if len(rows) == 0 {
			return
		}
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(append(lines, st.Title.Render(title)), rows...)
	}
	section("Keys here ("+clean(m.top().Title())+")", screenKeys...)
	section("Everywhere", full[len(full)-1])
	lines = append(lines, "", st.Title.Render("Mouse"))
	for _, l := range wrap("A click selects a row, a click on the selected row opens it, a click on a tab switches to it, the wheel scrolls. Shift+drag selects text (Option+drag in iTerm2).", max(width-2, 20)) {
		lines = append(lines, "  "+st.Help.FullDesc.Render(l))
	}
	return lines
}

// helpOverlay is the help, scrolled where the terminal is too short.
func (m Model) helpOverlay(width, height int) string {
	lines := m.helpLines(width)
	if height < 3 {
		return strings.Join(lines[:min(len(lines), max(height, 0))], "\n")
	}
	// Every line as wide as the widest, shown or not: the box keeps its
	// width while it scrolls.
	w := 0
	for _, l := range lines {
		w = max(w, lipgloss.Width(l))
	}
	shown := scrolled(m.sh.styles, lines, m.helpOffset, height, width)
	for i, l := range shown {
		shown[i] = l + strings.Repeat(" ", max(min(w, width)-lipgloss.Width(l), 0))
	}
	return strings.Join(shown, "\n")
}

func (m Model) fullHelp() helpMap {
	k := m.sh.keys
	hm := m.top().Help()
	full := append([][]key.Binding{}, hm.full...)
	quit := k.Quit
	if m.top().Capturing() {
		quit = k.ForceQuit
	}
	reqLog := k.RequestLog
	if m.top().Capturing() {
		reqLog = k.TextRequestLog
	}
	global := []key.Binding{k.Help, k.Back, reqLog}
	if m.sh.deps.RotateToken != nil {
		global = append(global, k.RotateToken)
	}
	full = append(full, append(global, quit))
	return helpMap{full: full}
}

func (m Model) statusBar(w int) string {
	st := m.sh.styles
	// Most specific first, so a narrow bar cuts the host rather than the project.
	var parts []string
	if t := m.top().Title(); t != "" {
		parts = append(parts, clean(t))
	}
	if u := m.sh.token.User; u != nil {
		parts = append(parts, "@"+clean(u.Username))
	}
	host := m.sh.deps.Host
	if v := m.sh.token.Version; v != nil {
		host += " (GitLab " + clean(v.Short()) + ")"
	}
	parts = append(parts, host)
	left := strings.Join(parts, " │ ")
	var right []string
	if m.busy() && m.sh.deps.Accessible {
		right = append(right, "working…")
	} else if m.busy() {
		right = append(right, m.spin.view())
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

// tokenWarning is set when the token expires within workflow.WarnDays; the
// words are the ones `errtrack status` uses.
func (m Model) tokenWarning() string {
	now := m.sh.clock.Now()
	if !m.sh.token.ExpiresSoon(now) {
		return ""
	}
	warn := "⚠ token " + m.sh.token.Expiry(now)
	if m.sh.deps.RotateToken != nil {
		warn += " · ctrl+t rotate"
	}
	return warn
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
