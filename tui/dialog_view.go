package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// How a dialog is drawn: wrapped to the terminal, scrolled where it is
// taller, its buttons or its field below.

// scroll moves the body of a box taller than the terminal with the
// navigation keys; false when msg is not one, or the body fits.
func (d dialog) scroll(msg tea.KeyPressMsg, k KeyMap, st Styles, width, height int) (_ dialog, ok bool) {
	_, _, body, room := d.layout(st, width, height)
	if d.ask != nil {
		// The keys are the field's, but pgup and pgdn: a small terminal
		// reads the question's words with them.
		if !key.Matches(msg, k.TextPageUp, k.TextPageDown) || len(body) <= room || room < 3 {
			return d, false
		}
		d.offset, ok = scrollBy(msg, k, d.offset, len(body), room)
		return d, ok
	}
	if len(d.table) > 0 && key.Matches(msg, k.Up, k.Down) {
		// The arrows select a row of the table (enter shows it whole),
		// the body following the selection.
		if key.Matches(msg, k.Up) {
			d.row = max(d.row-1, 0)
		} else {
			d.row = min(d.row+1, len(d.table))
		}
		if d.row > 0 && len(body) > room && room >= 3 {
			_, starts := d.tableLines(st, d.innerWidth(width), d.row)
			line := starts[d.row-1]
			switch {
			case line < d.offset+1:
				d.offset = max(line-1, 0)
			case line > d.offset+room-3:
				d.offset = min(line-room+3, max(len(body)-room+1, 0))
			}
		}
		return d, true
	}
	if len(body) <= room || room < 3 {
		return d, false
	}
	d.offset, ok = scrollBy(msg, k, d.offset, len(body), room)
	return d, ok
}

// innerWidth is the box's inner width: dialogWidth where the terminal
// has room, and a table's the terminal's width, so a plan's rows fit on
// one line each.
func (d dialog) innerWidth(width int) int {
	const chrome = 4 // border and padding, left and right
	if len(d.table) > 0 {
		return max(min(maxTableWidth, width-chrome-2), 10)
	}
	// A value copied whole (a DSN, a URL: a line of one word) widens the
	// box to hold it on one line where the terminal allows.
	inner := dialogWidth
	for _, l := range d.body {
		if t := strings.TrimSpace(l); !strings.Contains(t, " ") {
			inner = max(inner, lipgloss.Width(l))
		}
	}
	return max(min(inner, width-chrome-2), 10)
}

// maxTableWidth bounds a table's box on a very wide terminal.
const maxTableWidth = 160

// scrollBy moves the first line shown of n lines in room with the
// navigation keys; false when msg is not one of them.
func scrollBy(msg tea.KeyPressMsg, k KeyMap, offset, n, room int) (int, bool) {
	page := max(room-3, 1)
	last := max(n-room+1, 0) // a line says what is above
	switch {
	case key.Matches(msg, k.Up):
		offset--
	case key.Matches(msg, k.Down):
		offset++
	case key.Matches(msg, k.PageUp):
		offset -= page
	case key.Matches(msg, k.PageDown):
		offset += page
	case key.Matches(msg, k.Top):
		offset = 0
	case key.Matches(msg, k.Bottom):
		offset = last
	default:
		return offset, false
	}
	return min(max(offset, 0), last), true
}

// scrolled is the room lines of lines shown from offset, a line saying
// what is above and another what is below, where there is more.
func scrolled(st Styles, lines []string, offset, room, width int) []string {
	if len(lines) <= room || room < 3 {
		return lines
	}
	off := min(offset, len(lines)-room+1)
	n := room - 1
	if off > 0 && off+room-1 < len(lines) {
		n = room - 2
	}
	shown := slices.Clone(lines[off : off+n])
	more := func(n int, arrow, keys string) string {
		return st.Subtle.Render(truncate(fmt.Sprintf("%s %d more %s (%s)", arrow, n, map[bool]string{true: "line", false: "lines"}[n == 1], keys), width))
	}
	if off > 0 {
		shown = append([]string{more(off, "↑", "↑/pgup")}, shown...)
	}
	if below := len(lines) - off - n; below > 0 {
		shown = append(shown, more(below, "↓", "↓/pgdn"))
	}
	return shown
}

// dialogWidth is every dialog's inner width where the terminal has room:
// one width for every question and box, so they read as one family, wide
// enough for a DSN on one line (about 90 characters), to be selected as
// one string; a longer one widens its box where the terminal allows, and
// breaks at its separators where it does not.
const dialogWidth = 96

// layout wraps the title and the body at the box's inner width; room is
// how many body lines fit.
func (d dialog) layout(st Styles, width, height int) (inner int, title, body []string, room int) {
	inner = d.innerWidth(width)
	title = wrap(d.title, inner)
	if len(d.table) > 0 {
		body, _ = d.tableLines(st, inner, d.row)
		if len(d.body) > 0 {
			body = append(body, "")
		}
	}
	for _, l := range d.body {
		if l == "" {
			body = append(body, "")
			continue
		}
		body = append(body, wrapHanging(l, inner)...)
	}
	// Lines available: the height less the border, the title, two blank
	// lines and the buttons.
	room = height - 2 - len(title) - 3
	if d.ask != nil {
		// The field, its option and its problem, below the body.
		room -= strings.Count(d.ask.view(st, inner), "\n")
	}
	if room < 0 {
		title, room = title[:1], height-6
	}
	return inner, title, body, room
}

// view draws the box to fit width x height. The body wraps at the box's
// width, each wrapped line under the text it continues; a body taller than the room scrolls, saying what is above and below:
// the title and the buttons always show. A question not armed yet (it
// opened by itself a moment ago) draws its buttons faint and says that
// keys wait.
func (d dialog) view(st Styles, width, height int, armed bool) string {
	const chrome = 4
	inner, title, body, room := d.layout(st, width, height)
	switch {
	case len(body) <= room:
	case room < 3:
		body = body[:max(room, 0)]
		if room > 0 {
			body[room-1] = truncate(body[room-1]+" …", inner)
		}
	default:
		body = scrolled(st, body, d.offset, room, inner)
		if d.ask != nil { // the arrows are the field's
			for i, l := range body {
				body[i] = strings.NewReplacer("(↓/pgdn)", "(pgdn)", "(↑/pgup)", "(pgup)").Replace(l)
			}
		}
	}
	var b strings.Builder
	b.WriteString(st.Title.Render(strings.Join(title, "\n")))
	b.WriteString("\n")
	if len(body) > 0 {
		b.WriteString("\n" + strings.Join(body, "\n") + "\n")
	}
	switch {
	case d.ask != nil:
		b.WriteString("\n" + d.ask.view(st, inner))
	case len(d.picks) > 0:
		b.WriteString("\n" + st.Subtle.Render("esc: none of these"))
	case d.onYes == nil:
		b.WriteString("\n" + st.ButtonActive.Render("OK"))
	default:
		button := func(label string, c int) string {
			switch {
			case !armed:
				return st.Button.Inherit(st.Subtle).Render(label)
			case d.choice == c:
				return st.ButtonActive.Render(label)
			}
			return st.Button.Render(label)
		}
		row := button("No", choiceNo) + "  "
		if d.onAlt != nil {
			row += button(d.alt, choiceAlt) + "  "
		}
		row += button(d.yes, choiceYes)
		if lipgloss.Width(row) > inner {
			// Too narrow: the labels' first words ("Send", "Delete").
			row = button("No", choiceNo) + "  "
			if d.onAlt != nil {
				row += button(firstWord(d.alt), choiceAlt) + "  "
			}
			row += button(firstWord(d.yes), choiceYes)
		}
		// Not armed yet: the note beside the buttons, or on the line above
		// them where it does not fit beside.
		above := ""
		switch {
		case armed:
		case lipgloss.Width(row)+2+lipgloss.Width(graceNote) <= inner:
			row += "  " + st.Subtle.Render(graceNote)
		default:
			above = st.Subtle.Render(truncate(graceNote, inner))
		}
		b.WriteString(above + "\n" + row)
	}
	box := st.Dialog
	if d.danger {
		box = st.DialogDanger
	}
	return box.Width(inner + chrome).Render(b.String())
}

// view draws the field, the option, and what is wrong with the text.
func (a *ask) view(st Styles, width int) string {
	in := a.input
	in.SetWidth(max(width-lipgloss.Width(in.Prompt)-1, 4))
	lines := []string{fieldView(in, st)}
	if a.optionLabel != "" {
		box := "[ ]"
		if a.option {
			box = "[x]"
		}
		// wrapped here, so the box counts the lines it takes
		opt := wrapHanging(box+" "+a.optionLabel+"  ("+keyName(a.toggleKey)+")", width)
		lines = append(lines, opt...)
	}
	if a.problem != "" {
		for _, l := range wrap(a.problem, width) {
			lines = append(lines, st.Error.Render(l))
		}
	}
	return strings.Join(lines, "\n")
}

func firstWord(s string) string {
	if i := strings.IndexByte(s, ' '); i > 0 {
		return s[:i]
	}
	return s
}
