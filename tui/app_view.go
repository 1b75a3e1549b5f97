package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// The root's frame: the active screen, or a dialog, the request log or the
// help page over it, above the status line, the help bar and the status bar
// (drawn in chrome_*.go).

// View draws the frame in the alternate screen.
func (m Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	// Clicks and the wheel only: a drag with Shift held still selects text
	// in most terminals.
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "errtrack"
	return v
}

func (m Model) render() string {
	w, h := max(m.width, 20), max(m.height, 4)
	msg := statusLines(m.sh.styles, m.status, w, h)
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
		body = overlay(m.sh.styles, fitLines(under, w, bodyH), d.view(m.sh.styles, w, bodyH, d.armed(m.sh.clock.Now())), w, bodyH)
	case m.log != nil:
		body = m.log.view()
	case m.showHelp:
		box := helpBox(m.sh.styles, m.helpLines(w-4), m.helpOffset, w-4, bodyH-2)
		body = lipgloss.Place(w, bodyH, lipgloss.Center, lipgloss.Center, m.sh.styles.Dialog.Render(box))
	default:
		body = m.top().View()
	}
	out := fitLines(body, w, bodyH)
	for _, l := range msg {
		out += "\n" + l
	}
	return out + "\n" + helpBar(m.sh.styles, m.barKeys(), w) + "\n" + statusBar(m.sh, m.top().Title(), m.busy(), m.spin.view(), w)
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

// barKeys are the keys that act now, for the help bar: the question's, the
// help page's, the log's or the screen's, then help and the way to quit.
func (m Model) barKeys() []key.Binding {
	k := m.sh.keys
	switch {
	case len(m.dialogs) > 0:
		return m.dialogs[len(m.dialogs)-1].help(k).short
	case m.showHelp:
		return []key.Binding{key.NewBinding(key.WithKeys("?"), key.WithHelp("?/esc", "close help"))}
	case m.log != nil:
		return append(m.log.help().short, k.ForceQuit)
	}
	keys := append([]key.Binding{}, m.top().Help().short...)
	switch {
	case !m.top().Capturing():
		return append(keys, k.Help, k.Quit)
	case m.isProjects():
		return append(keys, k.Help, k.ForceQuit)
	}
	return append(keys, k.ForceQuit)
}

func (m Model) isProjects() bool {
	_, ok := m.top().(*projectsScreen)
	return ok
}

// helpLines is the help page of the top screen.
func (m Model) helpLines(width int) []string {
	return helpPage(m.sh.styles, m.top().Title(), m.fullHelp(), width)
}

// fullHelp is the top screen's keys, then a column of the ones that work
// everywhere.
func (m Model) fullHelp() [][]key.Binding {
	k := m.sh.keys
	full := append([][]key.Binding{}, m.top().Help().full...)
	quit, reqLog := k.Quit, k.RequestLog
	if m.top().Capturing() {
		quit, reqLog = k.ForceQuit, k.TextRequestLog
	}
	global := []key.Binding{k.Help, k.Back, reqLog}
	if m.sh.deps.RotateToken != nil {
		global = append(global, k.RotateToken)
	}
	return append(full, append(global, quit))
}
