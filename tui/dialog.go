package tui

import (
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
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
	// table, when set, is drawn above the body at the box's width: the
	// plan or report of a change to several projects.
	table []reportRow
	drawn *drawnTable
	// row is the table's selected row, 1-based (0: none): enter shows
	// it whole.
	row int
	// offset is the first body line shown when the body is taller than
	// the box (a report of many projects): the arrows scroll it.
	offset int
}

// withTable puts rows above the body, as a table.
func (d dialog) withTable(rows []reportRow) dialog {
	d.table, d.drawn = rows, &drawnTable{}
	return d
}

// drawnTable keeps a dialog's table as last drawn: a plan of 5,000
// projects took the console 100 ms to lay out, on every frame and key.
// It is kept unselected; a selection draws its own row again.
type drawnTable struct {
	width   int
	palette palette
	layout  tableLayout
	lines   []string
	starts  []int
}

// tableLines is the table drawn at width in st, with row sel (1-based, 0
// none) selected, and each row's first line.
func (d dialog) tableLines(st Styles, width, sel int) (lines []string, starts []int) {
	c := d.drawn
	if c == nil {
		return reportTable(st, d.table, width, sel)
	}
	if c.lines == nil || c.width != width || c.palette != st.palette {
		lines, starts := reportTable(st, d.table, width, 0)
		*c = drawnTable{width: width, palette: st.palette, layout: layoutTable(d.table, width), lines: lines, starts: starts}
	}
	lines = slices.Clip(c.lines)
	if sel > 0 && sel <= len(d.table) {
		lines = slices.Clone(c.lines)
		at := c.starts[sel-1]
		row := c.layout.row(st, d.table[sel-1], true)
		copy(lines[at:at+len(row)], row)
	}
	return lines, slices.Clip(c.starts)
}

// openDialogMsg opens a dialog; async marks one opened by a result
// arriving rather than by a key the user pressed for it.
type openDialogMsg struct {
	d     dialog
	async bool
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
	// suggested is what an empty field submits, shown as its placeholder:
	// typing replaces it rather than appending to it.
	suggested string
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

// suggesting is an input dialog whose field starts empty with value as
// its placeholder, submitted when nothing is typed.
func suggesting(d dialog, value string) dialog {
	a := *d.ask
	a.input.SetValue("")
	a.input.Placeholder = value
	a.suggested = value
	d.ask = &a
	return d
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
			text := strings.TrimSpace(a.input.Value())
			if text == "" {
				text = a.suggested
			}
			out, problem := a.submit(text, a.option)
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

// graceNote stands beside the buttons while the question takes no key.
const graceNote = "(just opened: keys wait a moment)"

// graceTickMsg draws the question again once its grace may have passed.
type graceTickMsg struct{}

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
	if d.row > 0 && d.row <= len(d.table) && key.Matches(msg, k.Confirm) {
		return d, msgCmd(openDialogMsg{d: rowDetails(d.table[d.row-1])}), false
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
	case key.Matches(msg, k.No), key.Matches(msg, k.Quit):
		// q, which quits elsewhere, cancels a question: it never quits
		// under one, nor is it ignored.
		return no()
	case d.onAlt != nil && key.Matches(msg, d.altKey):
		return d, msgCmd(d.onAlt), true
	case key.Matches(msg, k.SwitchChoice):
		d.choice = d.nextChoice(msg.String() == "left" || msg.String() == "h")
		d.row = 0 // enter chooses the button again
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
		// Confirm and cancel last: a narrow help bar keeps those two. The
		// option by its first words ("soft"): the box says the rest.
		var short []key.Binding
		if a.optionLabel != "" {
			label, _, _ := strings.Cut(a.optionLabel, ":")
			short = append(short, with(a.toggleKey, label))
		}
		return helpMap{short: append(short, with(k.Confirm, a.submitHelp), with(k.Back, "cancel"))}
	}
	if len(d.picks) > 0 {
		// The picks' keys as one ("e/d/r/v/m/x choose"): the box has their
		// words, and a narrow help bar keeps them all with esc.
		var keys []string
		for _, p := range d.picks {
			keys = append(keys, p.key.Help().Key)
		}
		choose := key.NewBinding(key.WithHelp(strings.Join(keys, "/"), "choose"))
		return helpMap{short: []key.Binding{choose, k.Back}}
	}
	// A table's rows are selected with the arrows, shown whole with enter.
	var rows []key.Binding
	if len(d.table) > 0 {
		rows = append(rows, with(k.Down, "select row"))
		if d.row > 0 {
			rows = append(rows, with(k.Confirm, "details"))
		}
	}
	if d.onYes == nil {
		if d.onAlt != nil {
			return helpMap{short: append(rows, with(d.altKey, d.alt), k.Close)}
		}
		return helpMap{short: append(rows, k.Close)}
	}
	// The help bar keeps its last two when narrow: y and n.
	if d.row > 0 {
		return helpMap{short: append(rows, k.Yes, k.No)}
	}
	if d.onAlt != nil {
		return helpMap{short: append(rows, k.SwitchChoice, k.Confirm, d.altKey, k.Yes, k.No)}
	}
	return helpMap{short: append(rows, k.SwitchChoice, k.Confirm, k.Yes, k.No)}
}

// rowDetails is one row whole: enter on a plan's or report's row.
func rowDetails(r reportRow) dialog {
	var body []string
	if r.cols.Target != "" {
		body = append(body, "Target:   "+r.cols.Target, "Changes:  "+r.cols.Changes, "Then:     "+r.cols.Then, "")
	}
	return infoDialog(r.project+": "+r.result, append(body, r.what))
}
