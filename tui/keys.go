package tui

import "charm.land/bubbles/v2/key"

// KeyMap holds every binding of the console. Screens enable the ones that
// work in their current state, so the help bar only shows keys that act.
type KeyMap struct {
	Quit, Help, Back key.Binding

	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Open, Filter, Refresh                   key.Binding

	Tab, NewKey, Delete, Show, Copy, Rotate key.Binding
	ToggleActive, ToggleIntegrated          key.Binding
	CreateSettings                          key.Binding

	Yes, No, Confirm, SwitchChoice key.Binding

	NextField, Submit key.Binding
}

// DefaultKeyMap is the console's key set.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Quit: key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Help: key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Back: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),

		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+b"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+f"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g", "top")),
		Bottom:   key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G", "bottom")),
		Open:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Filter:   key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter or type a path")),
		Refresh:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),

		Tab:              key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "settings/keys")),
		NewKey:           key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new")),
		Delete:           key.NewBinding(key.WithKeys("d", "delete"), key.WithHelp("d", "delete")),
		Show:             key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "show")),
		Copy:             key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy DSN")),
		Rotate:           key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "rotate")),
		ToggleActive:     key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "toggle active")),
		ToggleIntegrated: key.NewBinding(key.WithKeys("i"), key.WithHelp("i", "toggle integrated")),
		CreateSettings:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "create settings")),

		Yes:          key.NewBinding(key.WithKeys("y", "Y"), key.WithHelp("y", "yes")),
		No:           key.NewBinding(key.WithKeys("n", "N", "esc"), key.WithHelp("n/esc", "no")),
		Confirm:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose")),
		SwitchChoice: key.NewBinding(key.WithKeys("left", "right", "h", "l", "tab"), key.WithHelp("←/→", "switch")),

		NextField: key.NewBinding(key.WithKeys("tab", "shift+tab", "up", "down"), key.WithHelp("tab", "next field")),
		Submit:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "log in")),
	}
}

// helpMap adapts a list of bindings to help.KeyMap.
type helpMap struct {
	short []key.Binding
	full  [][]key.Binding
}

func (h helpMap) ShortHelp() []key.Binding  { return h.short }
func (h helpMap) FullHelp() [][]key.Binding { return h.full }
