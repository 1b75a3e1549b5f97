package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// dialog is a modal box: a yes/no confirmation that defaults to No, or an
// information box (onYes nil) that enter, esc or q closes.
type dialog struct {
	title  string
	body   []string // lines, already sanitized
	danger bool
	yes    string
	// onYes is delivered when the user confirms, onNo when they decline.
	// Each carries everything its action needs (the key ID confirmed), so
	// the action does not depend on what a screen shows by then.
	onYes, onNo tea.Msg
	// yesSelected is the highlighted button; false (No) at first.
	yesSelected bool
}

func confirmDialog(title string, body []string, yes string, onYes tea.Msg) dialog {
	return dialog{title: title, body: body, danger: true, yes: yes, onYes: onYes}
}

func infoDialog(title string, body []string) dialog {
	return dialog{title: title, body: body}
}

// update handles a key; done reports that the dialog closed, and cmd
// carries onYes or onNo.
func (d dialog) update(msg tea.KeyPressMsg, k KeyMap) (dialog, tea.Cmd, bool) {
	if d.onYes == nil {
		return d, nil, key.Matches(msg, k.Close)
	}
	no := func() (dialog, tea.Cmd, bool) {
		if d.onNo != nil {
			return d, msgCmd(d.onNo), true
		}
		return d, nil, true
	}
	switch {
	case key.Matches(msg, k.Yes):
		return d, msgCmd(d.onYes), true
	case key.Matches(msg, k.No):
		return no()
	case key.Matches(msg, k.SwitchChoice):
		d.yesSelected = !d.yesSelected
	case key.Matches(msg, k.Confirm):
		if d.yesSelected {
			return d, msgCmd(d.onYes), true
		}
		return no()
	}
	return d, nil, false
}

func (d dialog) help(k KeyMap) helpMap {
	if d.onYes == nil {
		return helpMap{short: []key.Binding{k.Close}}
	}
	// The help bar keeps its last two when narrow: y and n.
	return helpMap{short: []key.Binding{k.SwitchChoice, k.Confirm, k.Yes, k.No}}
}

// view draws the box to fit width x height. The body wraps at the box's
// width (a line that fits, such as a DSN on a wide terminal, stays whole)
// and is cut from the bottom when the height is short: the title and the
// buttons always show.
func (d dialog) view(st Styles, width, height int) string {
	const chrome = 4 // border and padding, left and right
	// Prose wraps at a readable width; a line without spaces (a DSN) widens
	// the box so it stays whole where the terminal allows.
	inner := 0
	for _, l := range append([]string{d.title}, d.body...) {
		w := lipgloss.Width(l)
		if strings.Contains(strings.TrimSpace(l), " ") {
			w = min(w, 72)
		}
		inner = max(inner, w)
	}
	inner = max(min(inner, width-chrome), 10)
	if d.onYes != nil {
		inner = max(inner, min(lipgloss.Width(d.yes)+10, width-chrome))
	}
	title := wrap(d.title, inner)
	var body []string
	for _, l := range d.body {
		if l == "" {
			body = append(body, "")
			continue
		}
		body = append(body, wrap(l, inner)...)
	}
	// Lines available: the height less the border, the title, two blank
	// lines and the buttons.
	room := height - 2 - len(title) - 3
	if room < 0 {
		title, room = title[:1], height-6
	}
	if len(body) > room {
		body = body[:max(room, 0)]
		if room > 0 {
			body[room-1] = truncate(body[room-1]+" …", inner)
		}
	}
	var b strings.Builder
	b.WriteString(st.Title.Render(strings.Join(title, "\n")))
	b.WriteString("\n")
	if len(body) > 0 {
		b.WriteString("\n" + strings.Join(body, "\n") + "\n")
	}
	b.WriteString("\n")
	if d.onYes == nil {
		b.WriteString(st.ButtonActive.Render("OK"))
	} else {
		no, yes := st.ButtonActive.Render("No"), st.Button.Render(d.yes)
		if d.yesSelected {
			no, yes = st.Button.Render("No"), st.ButtonActive.Render(d.yes)
		}
		b.WriteString(no + "  " + yes)
	}
	box := st.Dialog
	if d.danger {
		box = st.DialogDanger
	}
	return box.Width(inner + chrome).Render(b.String())
}
