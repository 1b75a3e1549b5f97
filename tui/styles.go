package tui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
)

// Styles are rebuilt when the terminal tells its background colour.
type Styles struct {
	Title, Subtle, Faint, Bold     lipgloss.Style
	Selected, Header               lipgloss.Style
	TabActive, TabInactive         lipgloss.Style
	StatusBar, StatusDemo, Warning lipgloss.Style
	Error, Success, Info           lipgloss.Style
	Dialog, DialogDanger           lipgloss.Style
	ButtonActive, Button           lipgloss.Style
	Help                           help.Styles
	// Input draws the text fields (the filters, the login, questions).
	Input   textinput.Styles
	Spinner lipgloss.Style
	// Dimmed draws a screen under a dialog.
	Dimmed lipgloss.Style
	// Semantic states: on (collecting), off (configured, disabled), none
	// (not set up), and what needs attention.
	StateOn, StateOff, StateNone, StateBad lipgloss.Style
	// Breadcrumb is the header's path; Accent its current part.
	Breadcrumb, Accent lipgloss.Style
	// palette tells palettes apart, for what keeps lines drawn in one.
	palette palette
}

type palette struct{ dark, noColor bool }

// NewStyles builds the palette for a dark or light background. With noColor
// (NO_COLOR set) only bold, faint and reverse are used, so state stays visible.
func NewStyles(isDark, noColor bool) Styles {
	ld := lipgloss.LightDark(isDark)
	accent := ld(lipgloss.Color("#5A3FC0"), lipgloss.Color("#B4A2FF"))
	subtle := ld(lipgloss.Color("#6B6B6B"), lipgloss.Color("#9A9A9A"))
	red := ld(lipgloss.Color("#B00020"), lipgloss.Color("#FF6B6B"))
	green := ld(lipgloss.Color("#1B7F3A"), lipgloss.Color("#6BD58A"))
	yellow := ld(lipgloss.Color("#8A5A00"), lipgloss.Color("#F2C94C"))
	selBg := ld(lipgloss.Color("#DCD6F7"), lipgloss.Color("#3C3460"))
	// The selected row's own text colour: a background alone leaves the
	// terminal's text, dark on the dark row when a light terminal was
	// taken for a dark one.
	selFg := ld(lipgloss.Color("#1A1A2E"), lipgloss.Color("#F4F2FF"))
	barBg := ld(lipgloss.Color("#E8E8E8"), lipgloss.Color("#262626"))
	barFg := ld(lipgloss.Color("#303030"), lipgloss.Color("#D0D0D0"))

	s := Styles{palette: palette{isDark, noColor},
		Title:        lipgloss.NewStyle().Bold(true).Foreground(accent),
		Subtle:       lipgloss.NewStyle().Foreground(subtle),
		Faint:        lipgloss.NewStyle().Faint(true),
		Bold:         lipgloss.NewStyle().Bold(true),
		Selected:     lipgloss.NewStyle().Background(selBg).Foreground(selFg).Bold(true),
		Header:       lipgloss.NewStyle().Bold(true).Foreground(subtle),
		TabActive:    lipgloss.NewStyle().Bold(true).Foreground(accent).Underline(true),
		TabInactive:  lipgloss.NewStyle().Foreground(subtle),
		StatusBar:    lipgloss.NewStyle().Background(barBg).Foreground(barFg),
		StatusDemo:   lipgloss.NewStyle().Bold(true).Foreground(yellow),
		Warning:      lipgloss.NewStyle().Foreground(yellow),
		Error:        lipgloss.NewStyle().Foreground(red),
		Success:      lipgloss.NewStyle().Foreground(green),
		Info:         lipgloss.NewStyle().Foreground(accent),
		Dialog:       lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(accent).Padding(0, 1),
		DialogDanger: lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(red).Padding(0, 1),
		ButtonActive: lipgloss.NewStyle().Bold(true).Reverse(true).Padding(0, 1),
		Button:       lipgloss.NewStyle().Padding(0, 1),
		Help:         help.DefaultStyles(isDark),
		Input:        textinput.DefaultStyles(isDark),
		Spinner:      lipgloss.NewStyle().Foreground(accent),
		Dimmed:       lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#B8B8B8"), lipgloss.Color("#4A4A4A"))),
		StateOn:      lipgloss.NewStyle().Foreground(green),
		StateOff:     lipgloss.NewStyle().Foreground(yellow),
		StateNone:    lipgloss.NewStyle().Foreground(subtle),
		StateBad:     lipgloss.NewStyle().Foreground(red),
		Breadcrumb:   lipgloss.NewStyle().Foreground(subtle),
		Accent:       lipgloss.NewStyle().Bold(true).Foreground(accent),
	}
	// The help bar's keys in the terminal's own colour, bold, and its words
	// in the palette's subtle one: the defaults are too faint to read on
	// either background.
	s.Help.ShortKey = lipgloss.NewStyle().Bold(true)
	s.Help.FullKey = lipgloss.NewStyle().Bold(true)
	s.Help.ShortDesc = s.Help.ShortDesc.Foreground(subtle)
	s.Help.FullDesc = s.Help.FullDesc.Foreground(subtle)
	s.Help.ShortSeparator = s.Help.ShortSeparator.Foreground(subtle)
	s.Help.FullSeparator = s.Help.FullSeparator.Foreground(subtle)
	// Tabs that look like tabs: the active one a filled label.
	s.TabActive = lipgloss.NewStyle().Bold(true).Foreground(ld(lipgloss.Color("#FFFFFF"), lipgloss.Color("#1A1A2E"))).Background(accent).Padding(0, 1)
	s.TabInactive = lipgloss.NewStyle().Foreground(subtle).Padding(0, 1)
	s.Header = lipgloss.NewStyle().Bold(true).Foreground(subtle).Underline(true)
	// The fields' prompts ("/ "), blurred text and cursor in the palette:
	// Bubbles' default is ANSI colour 7, light grey, unseen on white.
	for _, st := range []*textinput.StyleState{&s.Input.Focused, &s.Input.Blurred} {
		st.Prompt = lipgloss.NewStyle().Foreground(accent)
	}
	s.Input.Blurred.Text = lipgloss.NewStyle().Foreground(subtle)
	s.Input.Cursor.Color = accent
	if noColor {
		plain := lipgloss.NewStyle()
		s.Title, s.TabActive = plain.Bold(true), plain.Bold(true).Underline(true)
		s.Subtle, s.TabInactive, s.Header = plain, plain, plain.Bold(true)
		s.Selected = plain.Reverse(true)
		s.StatusBar, s.StatusDemo, s.Warning = plain.Reverse(true), plain.Bold(true), plain.Bold(true)
		s.Error, s.Success, s.Info, s.Spinner = plain.Bold(true), plain, plain, plain
		s.Dialog = plain.Border(lipgloss.RoundedBorder()).Padding(0, 1)
		s.DialogDanger = s.Dialog
		s.Help = help.Styles{}
		s.Dimmed = plain.Faint(true)
		s.StateOn, s.StateOff, s.StateNone, s.StateBad = plain.Bold(true), plain, plain.Faint(true), plain.Bold(true)
		s.Breadcrumb, s.Accent = plain, plain.Bold(true)
		s.TabActive, s.TabInactive = plain.Bold(true).Reverse(true).Padding(0, 1), plain.Padding(0, 1)
		s.Header = plain.Bold(true).Underline(true)
		field := textinput.StyleState{Text: plain, Placeholder: plain.Faint(true), Suggestion: plain.Faint(true), Prompt: plain}
		s.Input.Focused, s.Input.Blurred, s.Input.Cursor.Color = field, field, nil
	}
	s.Input.Cursor.Blink = false // a blinking cursor needs a timer running
	return s
}
