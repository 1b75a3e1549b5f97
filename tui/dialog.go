package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// dialog is a modal box: a yes/no confirmation that defaults to No, or an
// information box (onYes nil) that enter, esc or q closes.
type dialog struct {
	title  string
	body   []string // lines, already sanitized
	danger bool
	yes    string
	// onYes is delivered when the user confirms, onNo when they decline.
	// Each carries everything its action needs (the key ID confirmed), so
	// the action does not depend on what a screen shows by then.
	onYes, onNo tea.Msg
	// alt, when set, is a third choice between No and yes, chosen with
	// altKey or its button (the rotation's test event).
	alt    string
	altKey key.Binding
	onAlt  tea.Msg
	// choice is the highlighted button: choiceNo at first.
	choice int
	// async: the dialog opened because a result arrived, not because the
	// user pressed a key for it. It takes keys only once the keyboard has
	// been quiet for gracePeriod since it opened (quietSince moves with
	// each key typed meanwhile), so a key typed for something else before
	// the question was drawn never answers it.
	async      bool
	quietSince time.Time
	// picks make an information box a menu: each key closes it and
	// delivers its message (the actions on marked projects).
	picks []pick
	// ask, when set, makes the box a question answered with a line of
	// text (a group's path, a variable's name).
	ask *ask
	// offset is the first body line shown when the body is taller than
	// the box (a report of many projects): the arrows scroll it.
	offset int
}

// ask is a text field in a dialog: enter hands its text (and the option,
// when there is one) to submit, which returns the message to deliver, or
// why the text will not do (the box stays open, saying so); esc closes it.
type ask struct {
	input textinput.Model
	// option is a yes/no beside the text that toggleKey switches ("with
	// its subgroups"); empty label: none.
	optionLabel string
	option      bool
	toggleKey   key.Binding
	submitHelp  string
	submit      func(text string, option bool) (tea.Msg, string)
	problem     string
}

// inputDialog asks for a line of text, starting with value.
func inputDialog(title string, body []string, prompt, value, submitHelp string, submit func(string, bool) (tea.Msg, string)) dialog {
	in := newTextInput(prompt, "")
	in.CharLimit = 255
	in.SetValue(value)
	in.CursorEnd()
	in.Focus()
	return dialog{title: title, body: body, ask: &ask{input: in, submit: submit, submitHelp: submitHelp}}
}

// withOption adds a yes/no to an input dialog, switched with k.
func (d dialog) withOption(label string, on bool, k key.Binding) dialog {
	a := *d.ask
	a.optionLabel, a.option, a.toggleKey = label, on, k
	d.ask = &a
	return d
}

// answer handles a key or a paste in an input dialog.
func (d dialog) answer(msg tea.Msg, k KeyMap) (dialog, tea.Cmd, bool) {
	a := *d.ask
	d.ask = &a
	if kp, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(kp, k.Back):
			return d, nil, true
		case key.Matches(kp, k.Confirm):
			out, problem := a.submit(strings.TrimSpace(a.input.Value()), a.option)
			if problem != "" {
				a.problem = problem
				return d, nil, false
			}
			return d, msgCmd(out), true
		case a.optionLabel != "" && key.Matches(kp, a.toggleKey):
			a.option = !a.option
			return d, nil, false
		}
	}
	var cmd tea.Cmd
	a.input, cmd = a.input.Update(msg)
	a.problem = ""
	return d, cmd, false
}

// pick is one choice of a menu dialog.
type pick struct {
	key   key.Binding
	label string
	msg   tea.Msg
}

// menuDialog offers picks; esc closes it choosing nothing.
func menuDialog(title string, body []string, picks []pick) dialog {
	for _, p := range picks {
		body = append(body, "  "+p.key.Help().Key+"  "+p.label)
	}
	return dialog{title: title, body: body, picks: picks}
}

// gracePeriod is longer than a typing pause and than a frame plus reading
// the title; short enough that a user answering does not notice it.
const gracePeriod = 425 * time.Millisecond

func (d dialog) openAsync(now time.Time) dialog {
	d.async, d.quietSince = true, now
	return d
}

// armed reports that the dialog takes keys now.
func (d dialog) armed(now time.Time) bool {
	return !d.async || now.Sub(d.quietSince) >= gracePeriod
}

// typedAt notes a key that arrived before the dialog was armed.
func (d dialog) typedAt(now time.Time) dialog {
	d.quietSince = now
	return d
}

const (
	choiceNo = iota
	choiceAlt
	choiceYes
)

// withAlt adds a third choice to a confirmation.
func (d dialog) withAlt(label string, k key.Binding, msg tea.Msg) dialog {
	d.alt, d.altKey, d.onAlt = label, k, msg
	return d
}

func confirmDialog(title string, body []string, yes string, onYes tea.Msg) dialog {
	return dialog{title: title, body: body, danger: true, yes: yes, onYes: onYes}
}

func infoDialog(title string, body []string) dialog {
	return dialog{title: title, body: body}
}

// update handles a key; done reports that the dialog closed, and cmd
// carries onYes or onNo.
func (d dialog) update(msg tea.KeyPressMsg, k KeyMap) (dialog, tea.Cmd, bool) {
	if d.ask != nil {
		return d.answer(msg, k)
	}
	if d.onYes == nil {
		for _, p := range d.picks {
			if key.Matches(msg, p.key) {
				return d, msgCmd(p.msg), true
			}
		}
		// An information box's one action (copy the DSN) leaves it open.
		if d.onAlt != nil && key.Matches(msg, d.altKey) {
			return d, msgCmd(d.onAlt), false
		}
		return d, nil, key.Matches(msg, k.Close)
	}
	no := func() (dialog, tea.Cmd, bool) {
		if d.onNo != nil {
			return d, msgCmd(d.onNo), true
		}
		return d, nil, true
	}
	switch {
	case key.Matches(msg, k.Yes):
		return d, msgCmd(d.onYes), true
	case key.Matches(msg, k.No):
		return no()
	case d.onAlt != nil && key.Matches(msg, d.altKey):
		return d, msgCmd(d.onAlt), true
	case key.Matches(msg, k.SwitchChoice):
		d.choice = d.nextChoice(msg.String() == "left" || msg.String() == "h")
	case key.Matches(msg, k.Confirm):
		switch d.choice {
		case choiceYes:
			return d, msgCmd(d.onYes), true
		case choiceAlt:
			return d, msgCmd(d.onAlt), true
		}
		return no()
	}
	return d, nil, false
}

// nextChoice moves the highlight one button right (or left), wrapping, and
// skipping the third choice when there is none.
func (d dialog) nextChoice(left bool) int {
	step := 1
	if left {
		step = 2
	}
	c := (d.choice + step) % 3
	if c == choiceAlt && d.onAlt == nil {
		c = (c + step) % 3
	}
	return c
}

func (d dialog) help(k KeyMap) helpMap {
	if a := d.ask; a != nil {
		short := []key.Binding{with(k.Confirm, a.submitHelp)}
		if a.optionLabel != "" {
			short = append(short, with(a.toggleKey, a.optionLabel))
		}
		return helpMap{short: append(short, with(k.Back, "cancel"))}
	}
	if len(d.picks) > 0 {
		short := make([]key.Binding, 0, len(d.picks)+1)
		for _, p := range d.picks {
			short = append(short, p.key) // its short words; the box has the long ones
		}
		return helpMap{short: append(short, k.Back)}
	}
	if d.onYes == nil {
		if d.onAlt != nil {
			return helpMap{short: []key.Binding{with(d.altKey, d.alt), k.Close}}
		}
		return helpMap{short: []key.Binding{k.Close}}
	}
	// The help bar keeps its last two when narrow: y and n.
	if d.onAlt != nil {
		return helpMap{short: []key.Binding{k.SwitchChoice, k.Confirm, d.altKey, k.Yes, k.No}}
	}
	return helpMap{short: []key.Binding{k.SwitchChoice, k.Confirm, k.Yes, k.No}}
}

// scroll moves the body of a box taller than the terminal with the
// navigation keys; false when msg is not one, or the body fits.
func (d dialog) scroll(msg tea.KeyPressMsg, k KeyMap, st Styles, width, height int) (_ dialog, ok bool) {
	if d.ask != nil {
		return d, false // the keys are the field's
	}
	_, _, body, room := d.layout(st, width, height)
	if len(body) <= room || room < 3 {
		return d, false
	}
	d.offset, ok = scrollBy(msg, k, d.offset, len(body), room)
	return d, ok
}

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

// layout wraps the title and the body at the box's inner width; room is
// how many body lines fit.
func (d dialog) layout(st Styles, width, height int) (inner int, title, body []string, room int) {
	const chrome = 4 // border and padding, left and right
	// Prose wraps at a readable width; a line without spaces (a DSN) widens
	// the box so it stays whole where the terminal allows.
	for _, l := range append([]string{d.title}, d.body...) {
		w := lipgloss.Width(l)
		if strings.Contains(strings.TrimSpace(l), " ") {
			w = min(w, 72)
		}
		inner = max(inner, w)
	}
	inner = max(min(inner, width-chrome), 10)
	if d.onYes != nil {
		buttons := lipgloss.Width(d.yes) + 10
		if d.onAlt != nil {
			buttons += lipgloss.Width(d.alt) + 4
		}
		inner = max(inner, min(buttons, width-chrome))
	}
	if d.ask != nil {
		inner = max(inner, min(56, width-chrome)) // room to type a path
	}
	title = wrap(d.title, inner)
	for _, l := range d.body {
		if l == "" {
			body = append(body, "")
			continue
		}
		body = append(body, wrap(l, inner)...)
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
// width (a line that fits, such as a DSN on a wide terminal, stays whole);
// a body taller than the room scrolls, saying what is above and below:
// the title and the buttons always show.
func (d dialog) view(st Styles, width, height int) string {
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
	}
	var b strings.Builder
	b.WriteString(st.Title.Render(strings.Join(title, "\n")))
	b.WriteString("\n")
	if len(body) > 0 {
		b.WriteString("\n" + strings.Join(body, "\n") + "\n")
	}
	b.WriteString("\n")
	switch {
	case d.ask != nil:
		b.WriteString(d.ask.view(st, inner))
	case len(d.picks) > 0:
		b.WriteString(st.Subtle.Render("esc: none of these"))
	case d.onYes == nil:
		b.WriteString(st.ButtonActive.Render("OK"))
	default:
		button := func(label string, c int) string {
			if d.choice == c {
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
		b.WriteString(row)
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
	lines := []string{in.View()}
	if a.optionLabel != "" {
		box := "[ ]"
		if a.option {
			box = "[x]"
		}
		lines = append(lines, box+" "+a.optionLabel+st.Subtle.Render("  ("+keyName(a.toggleKey)+")"))
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
