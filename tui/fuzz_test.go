package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

var fuzzKeys = []string{"up", "down", "enter", "esc", "tab", "backspace", "n", "d", "y", "c", "R", "r", "a", "i", "?", "/", "g", "G", "x", "1", "k", "j", "N", "q", "space", "pgdown", "pgup", "home", "end", "ctrl+u", "left", "right", "ctrl+r", "ctrl+x"}

// FuzzKeySequences presses random keys on a console of the mock server and
// delivers command results as they arrive, in any order: nothing may panic
// and every frame must fit the terminal.
func FuzzKeySequences(f *testing.F) {
	f.Add([]byte{2, 6, 8, 7, 3, 4})
	f.Add([]byte{10, 12, 7, 11, 5, 0, 1, 2, 14})
	f.Add([]byte{15, 18, 19, 2, 3, 3, 4, 20, 20})
	g := demoGitLab(f)
	f.Fuzz(func(t *testing.T, seq []byte) {
		if len(seq) > 64 {
			seq = seq[:64]
		}
		project := ""
		if len(seq) > 0 && seq[0]%2 == 0 {
			project = "1"
		}
		var m tea.Model = New(Deps{API: g.api, Project: project, Host: g.url, Clock: &manualClock{now: testNow}})
		m, _ = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		results := make(chan tea.Msg, 256)
		var exec func(cmd tea.Cmd)
		exec = func(cmd tea.Cmd) {
			if cmd == nil {
				return
			}
			go func() {
				msg := cmd()
				if b, ok := msg.(tea.BatchMsg); ok {
					for _, c := range b {
						exec(c)
					}
					return
				}
				select {
				case results <- msg:
				default:
				}
			}()
		}
		exec(m.Init())
		drain := func() {
			for {
				select {
				case msg := <-results:
					if msg == nil {
						continue
					}
					var cmd tea.Cmd
					m, cmd = m.Update(msg)
					exec(cmd)
				default:
					return
				}
			}
		}
		for _, b := range seq {
			drain()
			var cmd tea.Cmd
			m, cmd = m.Update(keyMsg(fuzzKeys[int(b)%len(fuzzKeys)]))
			exec(cmd)
			checkFrame(t, m.View().Content, 80, 24)
		}
		time.Sleep(5 * time.Millisecond)
		drain()
		checkFrame(t, m.View().Content, 80, 24)
	})
}

func checkFrame(t *testing.T, frame string, w, h int) {
	t.Helper()
	lines := strings.Split(frame, "\n")
	if len(lines) != h {
		t.Fatalf("frame has %d lines, want %d", len(lines), h)
	}
	for _, l := range lines {
		if lipgloss.Width(l) > w {
			t.Fatalf("line wider than %d: %q", w, l)
		}
	}
}
