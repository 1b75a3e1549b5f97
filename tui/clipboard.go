package tui

import (
	tea "charm.land/bubbletea/v2"
)

// osc52Msg asks the root to send text to the terminal's clipboard instead;
// inLog: the request log copied it, and the word about it goes with the log.
type osc52Msg struct {
	text, what string
	inLog      bool
}

// copyText puts text on the clipboard and says where: the system clipboard
// first, off the UI goroutine; over SSH, or when no system clipboard works,
// the terminal's, with OSC 52. OSC 52 cannot be confirmed, so the status
// says it was sent, not that it arrived.
func (sh *shared) copyText(text, what string) tea.Cmd {
	return sh.copy(osc52Msg{text: text, what: what})
}

// copyFromLog is copyText for the request log: what it says goes when the
// log closes.
func (sh *shared) copyFromLog(text, what string) tea.Cmd {
	return sh.copy(osc52Msg{text: text, what: what, inLog: true})
}

func (sh *shared) copy(c osc52Msg) tea.Cmd {
	cb := sh.deps.Clipboard
	if cb == nil || sh.deps.Remote {
		return msgCmd(c)
	}
	return func() tea.Msg {
		if err := cb.WriteAll(c.text); err != nil {
			return c
		}
		return statusMsg{text: "Copied " + c.what + " to the system clipboard.", kind: statusSuccess, inLog: c.inLog}
	}
}

// osc52 sends text with OSC 52 and says so.
func osc52(msg osc52Msg) tea.Cmd {
	return tea.Batch(tea.SetClipboard(msg.text), msgCmd(statusMsg{kind: statusSuccess, inLog: msg.inLog,
		text: "Sent " + msg.what + " to the terminal's clipboard (OSC 52; in tmux, set-clipboard on)."}))
}
