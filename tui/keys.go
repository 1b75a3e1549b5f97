package tui

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
)

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
	// Findings shows the open project's audit: what is wrong, with the fix;
	// Doctor runs errtrack doctor's checks on it.
	Findings, Doctor                               key.Binding
	ToggleActive, ToggleIntegrated, CreateSettings key.Binding
	// Rename and RateLimit change a Sentry key (ToggleActive turns one
	// off or on); SoftRotation switches a Sentry key's rotation between
	// disabling the old key and deleting it (in the rotation's question,
	// whose letters are the new key's name).
	Rename, RateLimit, SoftRotation key.Binding

	Yes, No, Confirm, SwitchChoice, Close key.Binding

	NextField, Submit key.Binding

	// RequestLog opens the request log; TextRequestLog where L is a letter.
	RequestLog, TextRequestLog key.Binding

	// RotateToken offers to rotate the access token when it expires soon.
	RotateToken key.Binding

	// Mark marks a project on the list; MarkAll the ones shown; Bulk acts
	// on the marked ones (or shows the last report). Not letters: the list
	// types letters into its filter.
	Mark, MarkAll, Bulk key.Binding
	// Scope narrows the list to the selected project's group, then the
	// group above, then all projects again.
	Scope key.Binding
	// BulkEnable, BulkDisable, BulkRotate and BulkVerify are the choices
	// of the Bulk menu.
	BulkEnable, BulkDisable, BulkRotate, BulkVerify key.Binding
	// BulkMigrate carries the marked projects to a Sentry; BulkDeleteOld
	// is its later step, deleting the migrated projects' glet_ keys.
	BulkMigrate, BulkDeleteOld key.Binding
	// BulkReport shows the last bulk change's report from the Bulk menu.
	BulkReport key.Binding
	// Subgroups switches "with its subgroups" in the group scope question.
	Subgroups key.Binding
	// Restart answers a rotation's "go on with the key an unfinished
	// rotation made?" with "make a new key".
	Restart key.Binding
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
		Doctor:           b([]string{"D"}, "D", "doctor"),
		FilterKeys:       b([]string{"/"}, "/", "filter"),
		ToggleActive:     b([]string{"a"}, "a", "toggle active"),
		ToggleIntegrated: b([]string{"i"}, "i", "toggle integrated"),
		CreateSettings:   b([]string{"enter"}, "enter", "create settings"),
		Rename:           b([]string{"e"}, "e", "rename key"),
		RateLimit:        b([]string{"l"}, "l", "rate limit"),
		SoftRotation:     b([]string{"tab"}, "tab", "soft"),

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

		Mark:          b([]string{"space"}, "space", "mark"),
		Scope:         b([]string{"ctrl+g"}, "ctrl+g", "group scope"),
		MarkAll:       b([]string{"ctrl+a"}, "ctrl+a", "mark all shown"),
		Bulk:          b([]string{"ctrl+o"}, "ctrl+o", "act on marked"),
		BulkEnable:    b([]string{"e"}, "e", "enable"),
		BulkDisable:   b([]string{"d"}, "d", "disable"),
		BulkRotate:    b([]string{"r"}, "r", "rotate"),
		BulkVerify:    b([]string{"v"}, "v", "test event"),
		BulkMigrate:   b([]string{"m"}, "m", "migrate to Sentry"),
		BulkDeleteOld: b([]string{"x"}, "x", "delete migrated keys"),
		BulkReport:    b([]string{"o"}, "o", "last report"),
		Subgroups:     b([]string{"tab"}, "tab", "with subgroups"),
		Restart:       b([]string{"m"}, "m", "make a new key"),
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

// Rebindable names the bindings the config file's "keys" section can
// change, as the names it uses.
var Rebindable = []string{
	"quit", "help", "refresh", "up", "down", "top", "bottom",
	"new", "delete", "rotate", "copy", "verify", "filter",
	"open-in-gitlab", "findings", "doctor", "toggle-active", "toggle-integrated", "request-log",
	"rename", "rate-limit",
}

func (k *KeyMap) byName() map[string]*key.Binding {
	return map[string]*key.Binding{
		"quit": &k.Quit, "help": &k.Help, "refresh": &k.Refresh, "up": &k.Up, "down": &k.Down,
		"top": &k.Top, "bottom": &k.Bottom, "new": &k.NewKey, "delete": &k.Delete, "rotate": &k.Rotate,
		"copy": &k.Copy, "verify": &k.Verify, "filter": &k.FilterKeys, "open-in-gitlab": &k.OpenWeb,
		"findings": &k.Findings, "doctor": &k.Doctor, "toggle-active": &k.ToggleActive, "toggle-integrated": &k.ToggleIntegrated,
		"request-log": &k.RequestLog, "rename": &k.Rename, "rate-limit": &k.RateLimit,
	}
}

// reserved are keys the console gives meanings the config cannot change:
// they answer dialogs, move between screens and fields, and open.
var reserved = map[string]string{
	"enter": "open and confirm", "esc": "back", "tab": "switch tab", "shift+tab": "switch tab",
	"y": "yes in a question", "Y": "yes in a question", "n": "no in a question", "N": "no in a question",
	"ctrl+c": "quit", "left": "switch in a question", "right": "switch in a question",
	"ctrl+x": "forget a recent project", "ctrl+t": "rotate the token", "ctrl+r": "refresh the projects",
	"pgup": "page up", "pgdown": "page down", "ctrl+b": "page up", "ctrl+f": "page down",
	"space": "mark a project", "ctrl+a": "mark the projects shown", "ctrl+o": "act on the marked projects",
	"ctrl+g": "change the list's group scope",
}

// name is how the console words a binding's key in its sentences.
func keyName(b key.Binding) string { return b.Help().Key }

// RebindError is an invalid "keys" section: its message names the entry;
// for a key bound twice, Other is the other action.
type RebindError struct{ Name, Key, Why, Other string }

// From words the error from action's side, where action is the entry just
// written (errtrack config set keys.ACTION): a key bound twice names it.
func (e *RebindError) From(action string) *RebindError {
	if e.Other != action {
		return e
	}
	return &RebindError{Name: action, Key: e.Key, Why: fmt.Sprintf("is bound to both %s and %s", e.Name, action), Other: e.Name}
}

func (e *RebindError) Error() string {
	if e.Key == "" {
		return fmt.Sprintf("keys.%s: %s", e.Name, e.Why)
	}
	return fmt.Sprintf("keys.%s: %q %s", e.Name, e.Key, e.Why)
}

// Rebind returns k with the bindings m names replaced by m's keys. An
// unknown name, a key that is not a key, a key the console reserves, or
// one key bound to two actions is refused, naming the entry.
func (k KeyMap) Rebind(m map[string][]string) (KeyMap, error) {
	orig := k
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	defaults := DefaultKeyMap()
	byName := k.byName()
	for _, name := range names {
		b, ok := byName[name]
		if !ok {
			return orig, &RebindError{Name: name, Why: "is not an action that can be rebound; these can: " + strings.Join(Rebindable, ", ")}
		}
		keys := m[name]
		if len(keys) == 0 {
			return orig, &RebindError{Name: name, Why: "has no key: give at least one, or leave the action out"}
		}
		for _, s := range keys {
			if !ValidKey(s) {
				return orig, &RebindError{Name: name, Key: s, Why: `is not a key name: a character ("x", "X", "?"), or enter-like names such as "ctrl+x", "alt+x", "f5", "home", "delete", "space"`}
			}
			if why, ok := reserved[s]; ok && !slices.Contains(defaults.byName()[name].Keys(), s) {
				return orig, &RebindError{Name: name, Key: s, Why: "is reserved (" + why + ")"}
			}
		}
		help := keys[0]
		if name == "up" || name == "down" || name == "top" || name == "bottom" {
			help = strings.Join(keys, "/")
		}
		*b = key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, b.Help().Desc))
	}
	// One key, one action.
	owner := map[string]string{}
	for _, name := range Rebindable {
		for _, s := range byName[name].Keys() {
			if o, ok := owner[s]; ok {
				n, other := name, o
				if _, rebound := m[name]; !rebound {
					n, other = o, name // name the entry the user wrote
				}
				return orig, &RebindError{Name: n, Key: s, Why: fmt.Sprintf("is bound to both %s and %s", o, name), Other: other}
			}
			owner[s] = name
		}
	}
	// Where letters are text, only the log's keys that are not a character
	// open it (ctrl+l when none is).
	if _, ok := m["request-log"]; ok {
		var text []string
		for _, s := range k.RequestLog.Keys() {
			if len([]rune(s)) > 1 {
				text = append(text, s)
			}
		}
		if len(text) > 0 {
			k.TextRequestLog = key.NewBinding(key.WithKeys(text...), key.WithHelp(text[0], k.RequestLog.Help().Desc))
		}
	}
	return k, nil
}

var keyNames = map[string]bool{
	"space": true, "backspace": true, "delete": true, "insert": true, "home": true, "end": true,
	"pgup": true, "pgdown": true, "up": true, "down": true, "left": true, "right": true,
	"enter": true, "esc": true, "tab": true, "shift+tab": true,
}

// ValidKey reports whether s names a key as Bubble Tea writes it: one
// printable character, a named key, f1-f12, or ctrl+/alt+ one of those.
func ValidKey(s string) bool {
	if keyNames[s] {
		return true
	}
	if rest, ok := strings.CutPrefix(s, "ctrl+"); ok {
		s = rest
	} else if rest, ok := strings.CutPrefix(s, "alt+"); ok {
		s = rest
	}
	if keyNames[s] {
		return true
	}
	if n, ok := strings.CutPrefix(s, "f"); ok && n != "" {
		if v, err := strconv.Atoi(n); err == nil && v >= 1 && v <= 12 {
			return true
		}
	}
	r := []rune(s)
	return len(r) == 1 && unicode.IsGraphic(r[0]) && !unicode.IsSpace(r[0])
}

// DefaultKeys are action's keys when the config file does not rebind it;
// false for a name that is not a rebindable action.
func DefaultKeys(action string) ([]string, bool) {
	k := DefaultKeyMap()
	b, ok := k.byName()[action]
	if !ok {
		return nil, false
	}
	return b.Keys(), true
}
