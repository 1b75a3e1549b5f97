package tui

import "charm.land/bubbles/v2/key"

// KeyMap holds every binding of the console. Screens list the ones that act
// in their current state, so the help bar only shows keys that work.
type KeyMap struct {
	Quit, ForceQuit, Help, Back key.Binding

	// Nav moves lists where letters are commands; TextNav where letters are
	// text (the projects list types what it is given).
	Up, Down, PageUp, PageDown, Top, Bottom                         key.Binding
	TextUp, TextDown, TextPageUp, TextPageDown, TextTop, TextBottom key.Binding
	// Move only names the arrows in the help bar.
	Move key.Binding

	Open, Refresh, TextRefresh, Forget, ClearFilter key.Binding

	Tab, NewKey, Delete, Show, Copy, Rotate, Verify, FilterKeys key.Binding
	// OpenWeb opens the project's error tracking settings in GitLab.
	OpenWeb key.Binding
	// Findings shows the open project's audit: what is wrong, with the fix.
	Findings                                       key.Binding
	ToggleActive, ToggleIntegrated, CreateSettings key.Binding

	Yes, No, Confirm, SwitchChoice, Close key.Binding

	NextField, Submit key.Binding

	// RequestLog opens the request log; TextRequestLog where L is a letter.
	RequestLog, TextRequestLog key.Binding

	// RotateToken offers to rotate the access token when it expires soon.
	RotateToken key.Binding
}

// DefaultKeyMap is the console's key set.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, helpKey, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
	}
	return KeyMap{
		Quit:      b([]string{"q", "ctrl+c"}, "q", "quit"),
		ForceQuit: b([]string{"ctrl+c"}, "ctrl+c", "quit"),
		Help:      b([]string{"?"}, "?", "help"),
		Back:      b([]string{"esc"}, "esc", "back"),

		Up:       b([]string{"up", "k"}, "↑/k", "up"),
		Down:     b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:   b([]string{"pgup", "ctrl+b"}, "pgup", "page up"),
		PageDown: b([]string{"pgdown", "ctrl+f"}, "pgdn", "page down"),
		Top:      b([]string{"home", "g"}, "g/home", "top"),
		Bottom:   b([]string{"end", "G"}, "G/end", "bottom"),

		TextUp:       b([]string{"up"}, "↑", "up"),
		TextDown:     b([]string{"down"}, "↓", "down"),
		TextPageUp:   b([]string{"pgup"}, "pgup", "page up"),
		TextPageDown: b([]string{"pgdown"}, "pgdn", "page down"),
		TextTop:      b([]string{"home"}, "home", "top"),
		TextBottom:   b([]string{"end"}, "end", "bottom"),
		Move:         b([]string{"up", "down"}, "↑/↓", "move"),

		Open:        b([]string{"enter"}, "enter", "open"),
		Refresh:     b([]string{"r"}, "r", "refresh"),
		TextRefresh: b([]string{"ctrl+r"}, "ctrl+r", "refresh"),
		Forget:      b([]string{"ctrl+x"}, "ctrl+x", "forget recent"),
		ClearFilter: b([]string{"esc"}, "esc", "clear"),

		Tab:              b([]string{"tab", "shift+tab"}, "tab", "settings/keys"),
		NewKey:           b([]string{"n"}, "n", "new"),
		Delete:           b([]string{"d", "delete"}, "d", "delete"),
		Show:             b([]string{"enter"}, "enter", "show"),
		Copy:             b([]string{"c"}, "c", "copy DSN"),
		Rotate:           b([]string{"R"}, "R", "rotate"),
		Verify:           b([]string{"v"}, "v", "test event"),
		OpenWeb:          b([]string{"o"}, "o", "open in GitLab"),
		Findings:         b([]string{"F"}, "F", "findings"),
		FilterKeys:       b([]string{"/"}, "/", "filter"),
		ToggleActive:     b([]string{"a"}, "a", "toggle active"),
		ToggleIntegrated: b([]string{"i"}, "i", "toggle integrated"),
		CreateSettings:   b([]string{"enter"}, "enter", "create settings"),

		Yes:          b([]string{"y", "Y"}, "y", "yes"),
		No:           b([]string{"n", "N", "esc"}, "n/esc", "no"),
		Confirm:      b([]string{"enter"}, "enter", "choose"),
		SwitchChoice: b([]string{"left", "right", "h", "l", "tab"}, "←/→", "switch"),
		Close:        b([]string{"enter", "esc", "q"}, "enter/esc", "close"),

		NextField: b([]string{"tab", "shift+tab", "up", "down"}, "tab", "next field"),
		Submit:    b([]string{"enter"}, "enter", "log in"),

		RequestLog:     b([]string{"L", "ctrl+l"}, "L", "request log"),
		TextRequestLog: b([]string{"ctrl+l"}, "ctrl+l", "request log"),

		RotateToken: b([]string{"ctrl+t"}, "ctrl+t", "rotate token"),
	}
}

func (k KeyMap) nav() navKeys {
	return navKeys{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
}

func (k KeyMap) textNav() navKeys {
	return navKeys{k.TextUp, k.TextDown, k.TextPageUp, k.TextPageDown, k.TextTop, k.TextBottom}
}

// with returns b with other help words, for a binding whose meaning depends
// on the state ("tab settings" / "tab keys").
func with(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// helpMap adapts a list of bindings to help.KeyMap.
type helpMap struct {
	short []key.Binding
	full  [][]key.Binding
}

func (h helpMap) ShortHelp() []key.Binding  { return h.short }
func (h helpMap) FullHelp() [][]key.Binding { return h.full }
