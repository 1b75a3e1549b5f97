package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/errtrack/errtrack/internal/safetext"
)

// clean makes server text safe to draw: no escape sequences or controls.
func clean(s string) string { return safetext.Clean(s) }

// truncate cuts s to width cells with an ellipsis; s may hold styling.
func truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if lipgloss.Width(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}

// pad truncates or pads s to exactly width cells.
func pad(s string, width int) string {
	s = truncate(s, width)
	if w := lipgloss.Width(s); w < width {
		s += strings.Repeat(" ", width-w)
	}
	return s
}

// fitLines makes text exactly height lines of at most width cells.
func fitLines(text string, width, height int) string {
	lines := strings.Split(text, "\n")
	if len(lines) > height {
		lines = lines[:height]
	}
	for i, l := range lines {
		lines[i] = truncate(l, width)
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// scrollWindow keeps cursor visible in a window of height rows.
func scrollWindow(cursor, offset, height, total int) int {
	if height <= 0 {
		return 0
	}
	if cursor < offset {
		offset = cursor
	}
	if cursor >= offset+height {
		offset = cursor - height + 1
	}
	return max(min(offset, total-height), 0)
}

// moveCursor applies a movement key to a cursor over total rows, moving page
// rows at a time for page up and down.
func moveCursor(msg tea.KeyPressMsg, k KeyMap, cursor, total, page int) int {
	page = max(page, 1)
	switch {
	case key.Matches(msg, k.Up):
		cursor--
	case key.Matches(msg, k.Down):
		cursor++
	case key.Matches(msg, k.PageUp):
		cursor -= page
	case key.Matches(msg, k.PageDown):
		cursor += page
	case key.Matches(msg, k.Top):
		cursor = 0
	case key.Matches(msg, k.Bottom):
		cursor = total - 1
	}
	return max(min(cursor, total-1), 0)
}
