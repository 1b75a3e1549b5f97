package tui

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/dsn"
)

const (
	tabSettings = iota
	tabKeys
)

// Messages a confirmation dialog sends back to the project screen. Each
// carries what the user confirmed, not a pointer into the screen's state.
type (
	deleteConfirmedMsg   struct{ key apiclient.ClientKey }
	settingsConfirmedMsg struct {
		what       string
		active     bool
		integrated *bool
	}
)

// projectScreen shows one project's settings and client keys, loaded
// concurrently, as two tabs.
type projectScreen struct {
	sh   *shared
	ref  apiclient.ProjectRef
	name string
	tab  int

	settings        *apiclient.Settings
	settingsMissing bool // 404: none configured yet
	settingsErr     error
	settingsID      uint64

	keys       []apiclient.ClientKey
	keysLoaded bool
	keysErr    error
	keysID     uint64
	// createdDuringLoad holds keys whose creation was confirmed while a list
	// was in flight: that list may have been read before they existed.
	createdDuringLoad []apiclient.ClientKey

	// One request of each kind at a time; 0 means none in flight.
	createID, deleteID, changeID uint64
	// What the writes in flight are doing, for PendingWrites.
	creating, deleting, changing string

	// Choices for creating settings in the empty state.
	newActive, newIntegrated bool

	cursor, offset int
	height         int // rows of the key table, set when drawn
}

func newProjectScreen(sh *shared, ref apiclient.ProjectRef, name string) *projectScreen {
	return &projectScreen{sh: sh, ref: ref, name: clean(name), tab: tabKeys, newActive: true, newIntegrated: true}
}

func (s *projectScreen) Init() tea.Cmd { return tea.Batch(s.loadSettings(), s.loadKeys()) }

func (s *projectScreen) loadSettings() tea.Cmd {
	s.settingsID = nextRequestID()
	return loadSettingsCmd(s.sh.api, s.sh.deps.RequestTimeout, s.settingsID, s.ref)
}

func (s *projectScreen) loadKeys() tea.Cmd {
	s.keysID = nextRequestID()
	return loadKeysCmd(s.sh.api, s.sh.deps.RequestTimeout, s.keysID, s.ref)
}

func (s *projectScreen) Title() string { return s.name }

func (s *projectScreen) Busy() bool {
	return s.settingsID != 0 || s.keysID != 0 || s.createID != 0 || s.deleteID != 0 || s.changeID != 0
}

func (s *projectScreen) Capturing() bool { return false }

func (s *projectScreen) selected() (apiclient.ClientKey, bool) {
	if s.cursor < 0 || s.cursor >= len(s.keys) {
		return apiclient.ClientKey{}, false
	}
	return s.keys[s.cursor], true
}

func (s *projectScreen) Help() helpMap {
	k := s.sh.keys
	k.Tab.SetHelp("tab", "settings")
	if s.tab == tabSettings {
		k.Tab.SetHelp("tab", "keys")
	}
	nav := []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
	if s.tab == tabSettings {
		var acts []key.Binding
		switch {
		case s.settings != nil:
			acts = []key.Binding{k.ToggleActive, k.ToggleIntegrated}
		case s.settingsMissing:
			acts = []key.Binding{k.CreateSettings, k.ToggleActive, k.ToggleIntegrated}
		}
		short := append(append([]key.Binding{}, acts...), k.Tab, k.Refresh, k.Back)
		return helpMap{short: short, full: [][]key.Binding{{k.Tab, k.Refresh, k.Back}, acts}}
	}
	acts := []key.Binding{k.NewKey}
	if _, ok := s.selected(); ok {
		acts = append(acts, k.Delete, k.Rotate, k.Copy, k.Show)
	}
	// The one-line bar keeps to what fits in 80 columns; ? lists the rest.
	short := append(append([]key.Binding{}, acts[:min(len(acts), 4)]...), k.Tab)
	if len(acts) == 1 {
		short = append(short, k.Refresh, k.Back)
	}
	return helpMap{short: short, full: [][]key.Binding{{k.Tab, k.Refresh, k.Back}, acts, nav}}
}

func (s *projectScreen) Update(msg tea.Msg) (screen, tea.Cmd) {
	switch msg := msg.(type) {
	case settingsLoadedMsg:
		if !awaited(msg.id, s.settingsID) {
			return s, nil
		}
		s.settingsID = 0
		s.settingsErr, s.settingsMissing = nil, false
		switch {
		case errors.Is(msg.err, apiclient.ErrSettingsNotFound):
			s.settings, s.settingsMissing = nil, true
		case msg.err != nil:
			s.settingsErr = msg.err
			return s, s.loadFailed(msg.err, s.settings != nil)
		default:
			s.settings = msg.settings
		}
	case keysLoadedMsg:
		if !awaited(msg.id, s.keysID) {
			return s, nil
		}
		s.keysID = 0
		if msg.err != nil {
			s.keysErr = msg.err
			return s, s.loadFailed(msg.err, s.keysLoaded)
		}
		s.keysErr = nil
		s.setKeys(mergeCreated(msg.keys, s.createdDuringLoad))
		s.createdDuringLoad = nil
	case settingsChangedMsg:
		return s, s.onSettingsChanged(msg)
	case keyCreatedMsg:
		return s, s.onKeyCreated(msg)
	case keyDeletedMsg:
		return s, s.onKeyDeleted(msg)
	case deleteConfirmedMsg:
		if s.deleteID != 0 {
			return s, statusCmd(statusInfo, "A delete is already in progress.")
		}
		s.deleteID = nextRequestID()
		s.deleting = fmt.Sprintf("client key %d of %s was being deleted", msg.key.ID, s.name)
		return s, deleteKeyCmd(s.sh.api, s.sh.deps.RequestTimeout, s.deleteID, s.ref, msg.key)
	case settingsConfirmedMsg:
		return s, s.changeSettings(msg.what, msg.active, msg.integrated)
	case tea.KeyPressMsg:
		return s, s.onKey(msg)
	}
	return s, nil
}

// mergeCreated adds the keys created while the list was loading that the
// list does not have, keeping ascending id order.
func mergeCreated(list, created []apiclient.ClientKey) []apiclient.ClientKey {
	for _, c := range created {
		if !slices.ContainsFunc(list, func(k apiclient.ClientKey) bool { return k.ID == c.ID }) {
			list = append(list, c)
		}
	}
	slices.SortStableFunc(list, func(a, b apiclient.ClientKey) int { return cmp.Compare(a.ID, b.ID) })
	return list
}

// setKeys replaces the list and keeps the cursor on the same key when it is still there.
func (s *projectScreen) setKeys(keys []apiclient.ClientKey) {
	cur, had := s.selected()
	s.keys, s.keysLoaded = keys, true
	if had {
		for i, k := range keys {
			if k.ID == cur.ID {
				s.cursor = i
				return
			}
		}
	}
	s.cursor = max(min(s.cursor, len(keys)-1), 0)
}

func (s *projectScreen) failed(err error) tea.Cmd {
	if errors.Is(err, apiclient.ErrUnauthorized) {
		return msgCmd(authFailedMsg{err})
	}
	return statusCmd(statusError, s.sh.explain(err))
}

// loadFailed reports a failed load: in the pane when it has nothing to show,
// as a status message when it keeps showing the earlier data.
func (s *projectScreen) loadFailed(err error, hasData bool) tea.Cmd {
	if hasData || errors.Is(err, apiclient.ErrUnauthorized) {
		return s.failed(err)
	}
	return nil
}

func (s *projectScreen) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := s.sh.keys
	switch {
	case key.Matches(msg, k.Back):
		return msgCmd(backMsg{})
	case key.Matches(msg, k.Tab):
		s.tab = 1 - s.tab
		return nil
	case key.Matches(msg, k.Refresh):
		return tea.Batch(s.loadSettings(), s.loadKeys())
	}
	if s.tab == tabSettings {
		return s.onSettingsKey(msg)
	}
	return s.onKeysKey(msg)
}

func (s *projectScreen) onSettingsKey(msg tea.KeyPressMsg) tea.Cmd {
	k := s.sh.keys
	if s.settingsMissing {
		switch {
		case key.Matches(msg, k.ToggleActive):
			s.newActive = !s.newActive
		case key.Matches(msg, k.ToggleIntegrated):
			s.newIntegrated = !s.newIntegrated
		case key.Matches(msg, k.CreateSettings):
			if s.changeID != 0 {
				return statusCmd(statusInfo, "A settings change is already in progress.")
			}
			s.changeID = nextRequestID()
			s.changing = "the error tracking settings of " + s.name + " were being created"
			return createSettingsCmd(s.sh.api, s.sh.deps.RequestTimeout, s.changeID, s.ref, s.newActive, s.newIntegrated)
		}
		return nil
	}
	cur := s.settings
	if cur == nil {
		return nil
	}
	switch {
	case key.Matches(msg, k.ToggleActive):
		if cur.Active {
			return msgCmd(openDialogMsg{confirmDialog("Disable error tracking?",
				[]string{"Error tracking for " + s.name + " will be switched off: errors sent with its DSNs are no longer collected."},
				"Disable", settingsConfirmedMsg{what: "disabled", active: false})})
		}
		return s.changeSettings("enabled", true, nil)
	case key.Matches(msg, k.ToggleIntegrated):
		next := !cur.Integrated
		if cur.Integrated {
			return msgCmd(openDialogMsg{confirmDialog("Stop using integrated error tracking?",
				[]string{"The project will use its external error tracker settings instead of GitLab's integrated backend."},
				"Switch", settingsConfirmedMsg{what: "switched to the external tracker", active: cur.Active, integrated: &next})})
		}
		return s.changeSettings("switched to integrated error tracking", cur.Active, &next)
	}
	return nil
}

func (s *projectScreen) changeSettings(what string, active bool, integrated *bool) tea.Cmd {
	if s.changeID != 0 {
		return statusCmd(statusInfo, "A settings change is already in progress.")
	}
	s.changeID = nextRequestID()
	s.changing = "the error tracking settings of " + s.name + " were being changed"
	return updateSettingsCmd(s.sh.api, s.sh.deps.RequestTimeout, s.changeID, s.ref, what, active, integrated)
}

func (s *projectScreen) onSettingsChanged(msg settingsChangedMsg) tea.Cmd {
	if !awaited(msg.id, s.changeID) {
		return nil
	}
	s.changeID = 0
	if msg.err != nil {
		return s.failed(msg.err)
	}
	s.settings, s.settingsMissing, s.settingsErr = msg.settings, false, nil
	cmds := []tea.Cmd{statusCmd(statusSuccess, "Error tracking settings "+msg.what+".")}
	if msg.settings.Active && msg.settings.Integrated {
		// The server creates a first key when integrated tracking turns on.
		cmds = append(cmds, s.loadKeys())
	}
	return tea.Batch(cmds...)
}

func (s *projectScreen) onKeysKey(msg tea.KeyPressMsg) tea.Cmd {
	k := s.sh.keys
	switch {
	case key.Matches(msg, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom):
		s.move(msg)
		return nil
	case key.Matches(msg, k.NewKey):
		return s.createKey(nil)
	}
	sel, ok := s.selected()
	if !ok {
		return nil
	}
	switch {
	case key.Matches(msg, k.Delete):
		return msgCmd(openDialogMsg{confirmDialog(fmt.Sprintf("Delete client key %d?", sel.ID),
			[]string{"Public key " + clean(sel.PublicKey), "Clients that send errors with its DSN will stop reporting. This cannot be undone."},
			"Delete", deleteConfirmedMsg{key: sel})})
	case key.Matches(msg, k.Show):
		return msgCmd(openDialogMsg{infoDialog(fmt.Sprintf("Client key %d", sel.ID), []string{
			"Active:     " + yesNo(sel.Active),
			"Public key: " + clean(sel.PublicKey),
			"DSN:",
			clean(sel.DSN),
		})})
	case key.Matches(msg, k.Copy):
		return copyDSN(sel)
	case key.Matches(msg, k.Rotate):
		return s.createKey(&sel)
	}
	return nil
}

func (s *projectScreen) createKey(rotating *apiclient.ClientKey) tea.Cmd {
	if s.createID != 0 {
		return statusCmd(statusInfo, "A key is already being created.")
	}
	s.createID = nextRequestID()
	s.creating = "a client key was being created in " + s.name
	if rotating != nil {
		s.creating = fmt.Sprintf("a key rotation of %s was creating the new key to replace key %d", s.name, rotating.ID)
	}
	return createKeyCmd(s.sh.api, s.sh.deps.RequestTimeout, s.createID, s.ref, rotating)
}

func (s *projectScreen) onKeyCreated(msg keyCreatedMsg) tea.Cmd {
	if !awaited(msg.id, s.createID) {
		return nil
	}
	s.createID = 0
	if msg.err != nil {
		if apiclient.OutcomeUnknown(msg.err) {
			return statusCmd(statusError, s.sh.explain(msg.err)+" The key may have been created anyway: press r to refresh the list before creating another.")
		}
		return s.failed(msg.err)
	}
	s.keys = append(s.keys, *msg.key)
	s.cursor = len(s.keys) - 1
	if s.keysID != 0 {
		s.createdDuringLoad = append(s.createdDuringLoad, *msg.key)
	}
	if msg.rotating == nil {
		return statusCmd(statusSuccess, fmt.Sprintf("Created client key %d.", msg.key.ID))
	}
	old := *msg.rotating
	copied := "The new DSN is copied to the clipboard:"
	if err := dsn.Check(msg.key.DSN); err != nil {
		copied = "The new DSN was not copied: " + err.Error() + "; it is shown cleaned:"
	}
	return tea.Batch(
		copyDSN(*msg.key),
		msgCmd(openDialogMsg{confirmDialog(fmt.Sprintf("New key %d created. Delete old key %d?", msg.key.ID, old.ID), []string{
			copied,
			clean(msg.key.DSN),
			"",
			"Delete the old key " + clean(old.PublicKey) + " once your clients use the new DSN; clients still using it will stop reporting.",
		}, "Delete old key", deleteConfirmedMsg{key: old})}),
	)
}

func (s *projectScreen) onKeyDeleted(msg keyDeletedMsg) tea.Cmd {
	if !awaited(msg.id, s.deleteID) {
		return nil
	}
	s.deleteID = 0
	if errors.Is(msg.err, apiclient.ErrKeyNotFound) {
		// The key was listed, so it existed: another session deleted it.
		s.removeKey(msg.asked.ID)
		return tea.Batch(s.loadKeys(), statusCmd(statusInfo, fmt.Sprintf("Client key %d is already gone: it was deleted elsewhere. The list is refreshed.", msg.asked.ID)))
	}
	if msg.err != nil {
		return s.failed(msg.err)
	}
	s.removeKey(msg.asked.ID)
	if msg.gone {
		return statusCmd(statusSuccess, fmt.Sprintf("Deleted client key %d: the server no longer has it (the first attempt went through before its answer was lost).", msg.asked.ID))
	}
	return statusCmd(statusSuccess, fmt.Sprintf("Deleted client key %d (%s).", msg.asked.ID, clean(msg.asked.PublicKey)))
}

func (s *projectScreen) removeKey(id int64) {
	for i, k := range s.keys {
		if k.ID == id {
			s.keys = append(s.keys[:i:i], s.keys[i+1:]...)
			break
		}
	}
	s.cursor = max(min(s.cursor, len(s.keys)-1), 0)
}

func (s *projectScreen) move(msg tea.KeyPressMsg) {
	s.cursor = moveCursor(msg, s.sh.keys, s.cursor, len(s.keys), s.height-1)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func (s *projectScreen) View(width, height int) string {
	st := s.sh.styles
	var b strings.Builder
	b.WriteString(st.Title.Render(" "+s.name) + "\n")
	settingsTab, keysTab := " Settings"+s.settingsBadge()+" ", " Client keys"+s.keysBadge()+" "
	if s.tab == tabSettings {
		settingsTab, keysTab = st.TabActive.Render(settingsTab), st.TabInactive.Render(keysTab)
	} else {
		settingsTab, keysTab = st.TabInactive.Render(settingsTab), st.TabActive.Render(keysTab)
	}
	b.WriteString(settingsTab + "│" + keysTab + "\n\n")
	bodyH := height - 3
	if s.tab == tabSettings {
		b.WriteString(s.settingsView(width))
	} else {
		b.WriteString(s.keysView(width, bodyH))
	}
	return b.String()
}

func (s *projectScreen) settingsBadge() string {
	switch {
	case s.settings != nil && s.settings.Active:
		return " (active)"
	case s.settings != nil:
		return " (inactive)"
	case s.settingsMissing:
		return " (none)"
	}
	return ""
}

func (s *projectScreen) keysBadge() string {
	if !s.keysLoaded {
		return ""
	}
	return fmt.Sprintf(" (%d)", len(s.keys))
}

// pendingWrites says what the writes still in flight are doing.
func (s *projectScreen) pendingWrites() []string {
	var out []string
	for _, w := range []struct {
		id   uint64
		what string
	}{{s.createID, s.creating}, {s.deleteID, s.deleting}, {s.changeID, s.changing}} {
		if w.id != 0 {
			out = append(out, w.what)
		}
	}
	return out
}

// copyDSN puts a key's DSN on the clipboard, but only a DSN that is a plain
// http(s) URL: the screen shows a cleaned DSN, and a server could make the
// raw one a URL, a newline and a shell command (ending bracketed paste).
func copyDSN(k apiclient.ClientKey) tea.Cmd {
	if err := dsn.Check(k.DSN); err != nil {
		return statusCmd(statusError, fmt.Sprintf("Not copied: the DSN of key %d is not safe to paste (%s). Check the server's answer before using it.", k.ID, err))
	}
	return tea.Batch(tea.SetClipboard(k.DSN),
		statusCmd(statusSuccess, fmt.Sprintf("Copied the DSN of key %d to the clipboard (OSC 52; in tmux it needs set-clipboard on).", k.ID)))
}

// awaited reports an answer to the request in flight; 0 means none is.
func awaited(id, want uint64) bool { return id != 0 && id == want }
