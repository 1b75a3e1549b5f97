package tui

import (
	"fmt"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// listView is the cursor and scroll window of a list, shared by every list
// in the console. It changes only in Update (moves, new sizes, new lengths);
// View reads the window it keeps.
type listView struct {
	cursor, offset int
	height, total  int
}

// navKeys are the bindings that move a list.
type navKeys struct{ up, down, pageUp, pageDown, top, bottom key.Binding }

func (l *listView) setHeight(h int) { l.height = max(h, 1); l.clamp() }

func (l *listView) setTotal(n int) { l.total = max(n, 0); l.clamp() }

func (l *listView) selectIndex(i int) { l.cursor = i; l.clamp() }

// move applies a navigation key; it reports whether the key was one.
func (l *listView) move(msg tea.KeyPressMsg, k navKeys) bool {
	switch {
	case key.Matches(msg, k.up):
		l.cursor--
	case key.Matches(msg, k.down):
		l.cursor++
	case key.Matches(msg, k.pageUp):
		l.cursor -= l.height
	case key.Matches(msg, k.pageDown):
		l.cursor += l.height
	case key.Matches(msg, k.top):
		l.cursor = 0
	case key.Matches(msg, k.bottom):
		l.cursor = l.total - 1
	default:
		return false
	}
	l.clamp()
	return true
}

// scroll moves the window by n rows (the mouse wheel), keeping the cursor in it.
func (l *listView) scroll(n int) {
	l.offset = max(min(l.offset+n, l.total-l.height), 0)
	l.cursor = max(min(l.cursor, l.offset+l.height-1), l.offset)
	l.cursor = max(min(l.cursor, l.total-1), 0)
}

// click selects the row at line y of the window; it reports whether the row
// was already selected (a second click opens it) and whether y held a row.
func (l *listView) click(y int) (again, ok bool) {
	i := l.offset + y
	if y < 0 || y >= l.height || i >= l.total {
		return false, false
	}
	again = i == l.cursor
	l.cursor = i
	return again, true
}

func (l *listView) clamp() {
	l.cursor = max(min(l.cursor, l.total-1), 0)
	if l.cursor < l.offset {
		l.offset = l.cursor
	}
	if l.cursor >= l.offset+l.height {
		l.offset = l.cursor - l.height + 1
	}
	l.offset = max(min(l.offset, l.total-l.height), 0)
}

// window is the range of rows to draw.
func (l listView) window() (start, end int) {
	return l.offset, min(l.offset+l.height, l.total)
}

// atEnd reports a cursor within a screenful of the end, to load more.
func (l listView) nearEnd() bool { return l.cursor >= l.total-max(l.height, 10) }

// position is "23/152", or "" for an empty list.
func (l listView) position() string {
	if l.total == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", l.cursor+1, l.total)
}
