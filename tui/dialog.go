package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// dialog is a modal box: a yes/no confirmation that defaults to No, or an
// information box (onYes nil) that any of enter, esc or q closes.
type dialog struct {
	title  string
	body   []string // lines, already sanitized
	danger bool
	yes    string
	// onYes is delivered to the active screen when the user confirms. It
	// carries everything the action needs (the key ID confirmed), so the
	// action does not depend on what the screen shows by then.
	onYes tea.Msg
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
// carries onYes when it was confirmed.
func (d dialog) update(msg tea.KeyPressMsg, k KeyMap) (dialog, tea.Cmd, bool) {
	if d.onYes == nil {
		if key.Matches(msg, k.Confirm, k.Back, k.Quit) {
			return d, nil, true
		}
		return d, nil, false
	}
	switch {
	case key.Matches(msg, k.Yes):
		return d, msgCmd(d.onYes), true
	case key.Matches(msg, k.No):
		return d, nil, true
	case key.Matches(msg, k.SwitchChoice):
		d.yesSelected = !d.yesSelected
	case key.Matches(msg, k.Confirm):
		if d.yesSelected {
			return d, msgCmd(d.onYes), true
		}
		return d, nil, true
	}
	return d, nil, false
}

func (d dialog) help(k KeyMap) helpMap {
	if d.onYes == nil {
		return helpMap{short: []key.Binding{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter/esc", "close"))}}
	}
	return helpMap{short: []key.Binding{k.Yes, k.No, k.SwitchChoice, k.Confirm}}
}

func (d dialog) view(st Styles, width int) string {
	inner := min(max(width-8, 20), 76)
	var b strings.Builder
	b.WriteString(st.Title.Render(truncate(d.title, inner)))
	b.WriteString("\n\n")
	for _, line := range d.body {
		b.WriteString(lipgloss.NewStyle().Width(inner).Render(line))
		b.WriteString("\n")
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
	return box.Render(b.String())
}
