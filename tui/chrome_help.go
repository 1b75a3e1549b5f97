package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
)

// The root's help: the bar of the keys that act now, and the help page (?)
// listing every key once.

// helpBar draws keys on one line. When they do not fit, the screen's last
// ones go first: the last two ("? help" and the way to quit, or a
// question's y and n) always show.
func helpBar(st Styles, keys []key.Binding, w int) string {
	hs := st.Help
	item := func(b key.Binding) string {
		return hs.ShortKey.Render(b.Help().Key) + " " + hs.ShortDesc.Render(b.Help().Desc)
	}
	sep := hs.ShortSeparator.Render(" • ")
	fixed := min(2, len(keys))
	screenKeys, tail := keys[:len(keys)-fixed], keys[len(keys)-fixed:]
	for n := len(screenKeys); ; n-- {
		parts := make([]string, 0, n+fixed)
		for _, b := range append(screenKeys[:n:n], tail...) {
			parts = append(parts, item(b))
		}
		line := strings.Join(parts, sep)
		if lipgloss.Width(line) <= w || n == 0 {
			return truncate(line, w)
		}
	}
}

// helpPage lists every key once, under headings: the screen's (titled),
// then the ones that work everywhere (full's last column), then the mouse.
func helpPage(st Styles, title string, full [][]key.Binding, width int) []string {
	screenKeys := full[:len(full)-1]
	seen := map[string]bool{}
	keyW := 0
	for _, col := range full {
		for _, b := range col {
			keyW = max(keyW, lipgloss.Width(b.Help().Key))
		}
	}
	var lines []string
	section := func(title string, cols ...[]key.Binding) {
		var rows []string
		for _, col := range cols {
			for _, b := range col {
				h := b.Help()
				if h.Key == "" || seen[h.Key] {
					continue
				}
				seen[h.Key] = true
				rows = append(rows, "  "+st.Help.FullKey.Render(pad(h.Key, keyW))+"  "+st.Help.FullDesc.Render(h.Desc))
			}
		}
		if len(rows) == 0 {
			return
		}
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(append(lines, st.Title.Render(title)), rows...)
	}
	section("Keys here ("+clean(title)+")", screenKeys...)
	section("Everywhere", full[len(full)-1])
	lines = inColumns(lines, width)
	lines = append(lines, "", st.Title.Render("Mouse"))
	for _, l := range wrap("A click selects a row, a click on the selected row opens it, a click on a tab switches to it, the wheel scrolls. Shift+drag selects text (Option+drag in iTerm2).", max(width-2, 20)) {
		lines = append(lines, "  "+st.Help.FullDesc.Render(l))
	}
	return lines
}

// inColumns sets lines side by side in as many columns as width holds,
// as k9s's help does, so a wide terminal shows every key without
// scrolling: a column never ends on a heading nor starts with a blank.
func inColumns(lines []string, width int) []string {
	colW := 0
	for _, l := range lines {
		colW = max(colW, lipgloss.Width(l))
	}
	colW += 4
	n := min(max(width/max(colW, 1), 1), len(lines))
	if n <= 1 {
		return lines
	}
	height := (len(lines) + n - 1) / n
	var cols [][]string
	for rest := lines; len(rest) > 0; {
		for len(rest) > 0 && rest[0] == "" {
			rest = rest[1:]
		}
		k := min(height, len(rest))
		// a heading (a line with no indent) stays with its first key
		for k > 1 && k < len(rest) && !strings.HasPrefix(rest[k-1], " ") && rest[k-1] != "" {
			k--
		}
		if k == 0 {
			break
		}
		cols, rest = append(cols, rest[:k]), rest[k:]
	}
	if len(cols) > n {
		return lines // it would not fit after all
	}
	out := make([]string, 0, height)
	for i := 0; ; i++ {
		var row strings.Builder
		any := false
		for c, col := range cols {
			cell := ""
			if i < len(col) {
				cell, any = col[i], true
			}
			if c < len(cols)-1 {
				cell += strings.Repeat(" ", max(colW-lipgloss.Width(cell), 0))
			}
			row.WriteString(cell)
		}
		if !any {
			break
		}
		out = append(out, strings.TrimRight(row.String(), " "))
	}
	return out
}

// helpBox is the help page from line offset, scrolled where the terminal
// is too short; every line as wide as the widest, shown or not, so the box
// keeps its width while it scrolls.
func helpBox(st Styles, lines []string, offset, width, height int) string {
	if height < 3 {
		return strings.Join(lines[:min(len(lines), max(height, 0))], "\n")
	}
	w := 0
	for _, l := range lines {
		w = max(w, lipgloss.Width(l))
	}
	shown := scrolled(st, lines, offset, height, width)
	for i, l := range shown {
		shown[i] = l + strings.Repeat(" ", max(min(w, width)-lipgloss.Width(l), 0))
	}
	return strings.Join(shown, "\n")
}
