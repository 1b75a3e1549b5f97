package tui

import tea "charm.land/bubbletea/v2"

// screen is one page of the console. The root owns size, global keys, the
// status bar, dialogs and writes; a screen knows only its own state.
type screen interface {
	Init() tea.Cmd
	Update(msg tea.Msg) (screen, tea.Cmd)
	// SetSize gives the screen its drawing area; View must fit it.
	SetSize(width, height int)
	// View draws the screen; it changes nothing.
	View() string
	Help() helpMap
	// Title names the screen in the status bar ("demo/web-shop").
	Title() string
	// Busy reports a request in flight, for the spinner.
	Busy() bool
	// Capturing reports that printable keys are text for the screen (a
	// filter or a form), not global commands such as q.
	Capturing() bool
}

// mouser is a screen (or pane) the mouse acts on: the wheel scrolls, a
// click selects a row, a click on the selected row opens it. y counts from
// the top of what the screen draws.
type mouser interface {
	mouse(ev tea.Mouse, wheel bool) tea.Cmd
}

// wheelStep is how many rows a turn of the wheel scrolls.
const wheelStep = 3

func wheelDelta(ev tea.Mouse) int {
	switch ev.Button {
	case tea.MouseWheelUp:
		return -wheelStep
	case tea.MouseWheelDown:
		return wheelStep
	}
	return 0
}
