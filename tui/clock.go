package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Clock tells the time and schedules messages. The console's timers (status
// expiry, search debounce, spinner frames) all go through it, so tests can
// run them at will with a manual clock instead of waiting.
type Clock interface {
	Now() time.Time
	// After returns a command that delivers msg once d has passed.
	After(d time.Duration, msg tea.Msg) tea.Cmd
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) After(d time.Duration, msg tea.Msg) tea.Cmd {
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}
