package tui

import "time"

// spinner is the status bar's request indicator. It ticks through the
// console's Clock, like every other timer, so tests control it.
type spinner struct{ frame int }

var spinnerFrames = []string{"⣾", "⣽", "⣻", "⢿", "⡿", "⣟", "⣯", "⣷"}

const spinnerInterval = 100 * time.Millisecond

type spinnerTickMsg struct{}

func (s *spinner) tick() { s.frame = (s.frame + 1) % len(spinnerFrames) }

func (s spinner) view() string { return spinnerFrames[s.frame] }
