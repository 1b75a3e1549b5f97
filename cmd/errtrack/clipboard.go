package main

import (
	"github.com/atotto/clipboard"

	"github.com/errtrack/errtrack/tui"
)

// systemClipboard is the machine's clipboard through atotto/clipboard,
// which finds pbcopy, wl-copy, xclip or xsel, or clip.exe.
type systemClipboard struct{}

func (systemClipboard) WriteAll(s string) error { return clipboard.WriteAll(s) }

// clipboardDeps tells the console which clipboard to use: over SSH the
// system clipboard is the remote machine's, so OSC 52, which reaches the
// user's own terminal, comes first there.
func (a *app) clipboardDeps(d *tui.Deps) {
	if !clipboard.Unsupported {
		d.Clipboard = systemClipboard{}
	}
	d.Remote = a.getenv("SSH_CONNECTION") != "" || a.getenv("SSH_TTY") != "" || a.getenv("SSH_CLIENT") != ""
}
