package tui

import (
	tea "charm.land/bubbletea/v2"
)

// osc52Msg asks the root to send text to the terminal's clipboard instead.
type osc52Msg struct{ text, what string }

// copyText puts text on the clipboard and says where: the system clipboard
// first, off the UI goroutine; over SSH, or when no system clipboard works,
// the terminal's, with OSC 52. OSC 52 cannot be confirmed, so the status
// says it was sent, not that it arrived.
func (sh *shared) copyText(text, what string) tea.Cmd {
	cb := sh.deps.Clipboard
	if cb == nil || sh.deps.Remote {
		return msgCmd(osc52Msg{text, what})
	}
	return func() tea.Msg {
		if err := cb.WriteAll(text); err != nil {
			return osc52Msg{text, what}
		}
		return statusMsg{text: "Copied " + what + " to the system clipboard.", kind: statusSuccess}
	}
}

// osc52 sends text with OSC 52 and says so.
func osc52(msg osc52Msg) tea.Cmd {
	return tea.Batch(tea.SetClipboard(msg.text), statusCmd(statusSuccess,
		"Sent "+msg.what+" to the terminal's clipboard (OSC 52): it arrives where the terminal allows it (in tmux, set-clipboard on)."))
}
