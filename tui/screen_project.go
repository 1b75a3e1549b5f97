package tui

import (
	"errors"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/projectscope"
)

const (
	tabSettings = iota
	tabKeys
)

// projectScreen shows one project: its name (resolved with GET
// /projects/:id), and a settings pane and a keys pane as two tabs, all three
// loaded at once.
type projectScreen struct {
	sh      *shared
	project projectscope.Project
	info    loadable[projectscope.Project]
	tab     int
	// tabChosen: the user picked a tab; the settings no longer choose it.
	tabChosen bool

	settings *settingsPane
	keys     *keysPane

	// doctor: the doctor's checks, run when asked (D).
	doctor loadable[[]audit.Check]

	// refreshing: r was pressed; say so once everything is back.
	refreshing bool

	width, height int
}

func newProjectScreen(sh *shared, ref apiclient.ProjectRef, name string) *projectScreen {
	p := projectscope.Project{Ref: ref, ID: ref.ID, Path: ref.Path}
	if p.Path == "" {
		if r, err := apiclient.ParseProjectRef(name); err == nil {
			p.Path = r.Path
		}
	}
	s := &projectScreen{sh: sh, project: p, tab: tabKeys}
	s.settings = &settingsPane{sh: sh, newActive: true}
	s.keys = newKeysPane(sh)
	s.settings.migration = s.keys.migration
	s.settings.page = func() string { return projectscope.SettingsPage(sh.deps.Host, s.project) }
	return s
}

func (s *projectScreen) Init() tea.Cmd {
	return tea.Batch(s.loadInfo(), s.loadSettings(), s.loadKeys(), s.loadRotations())
}

func (s *projectScreen) loadInfo() tea.Cmd {
	return loadProjectCmd(s.sh.ctx(), s.sh.api, s.sh.deps.RequestTimeout, s.info.start(), s.project.Ref)
}

func (s *projectScreen) loadSettings() tea.Cmd {
	return loadSettingsCmd(s.sh.ctx(), s.sh.api, s.sh.deps.RequestTimeout, s.settings.data.start(), s.project.Ref)
}

func (s *projectScreen) loadKeys() tea.Cmd {
	return loadKeysCmd(s.sh.ctx(), s.sh.api, s.sh.deps, s.keys.data.start(), s.project.Ref)
}

// loadRotations reads the project's unfinished rotations from the ledger,
// once its ID is known (the ledger keeps projects by ID).
func (s *projectScreen) loadRotations() tea.Cmd {
	if s.sh.deps.Rotations == nil || s.project.ID == 0 {
		return nil
	}
	return loadOpenRotationsCmd(s.sh.deps.Rotations, s.keys.open.start(), s.project.ID)
}

// keysElsewhere: the settings now name another backend than the one the
// keys were listed from (a change of settings): the list is read again.
func (s *projectScreen) keysElsewhere() bool {
	k := s.keys
	return s.sh.deps.Sentry != nil && (k.data.has || k.data.err != nil) && !k.data.loading() &&
		(k.reports != "") != k.sentry()
}

// loadUses finds where each key's DSN is used once the keys, the settings
// and the project's path are known; the list is never held up by it.
func (s *projectScreen) loadUses() tea.Cmd {
	st := s.settings.data
	// Not while the keys are read again (a refresh): their answer asks.
	if !s.keys.data.has || s.keys.data.loading() || s.project.Path == "" || st.loading() || (!st.has && st.err == nil) {
		return nil
	}
	return loadUsesCmd(s.sh.ctx(), s.sh.api, s.sh.deps, s.keys.uses.start(), s.project,
		slices.Clone(s.keys.keys()), st.val.s, st.has)
}

func (s *projectScreen) Title() string { return clean(s.project.Name()) }

func (s *projectScreen) Busy() bool {
	if s.info.loading() || s.settings.data.loading() || s.keys.data.loading() || s.keys.uses.loading() || s.doctor.loading() {
		return true
	}
	for _, w := range s.sh.pending {
		if sameProject(w.project(), s.project) {
			return true
		}
	}
	return false
}

func (s *projectScreen) Capturing() bool { return s.tab == tabKeys && s.keys.filtering }

func (s *projectScreen) SetSize(w, h int) {
	s.width, s.height = w, h
	s.settings.setSize(w, h-3)
	s.keys.setSize(w, h-3)
}

func (s *projectScreen) Help() helpMap {
	k := s.sh.keys
	var pane helpMap
	tab := with(k.Tab, "keys")
	if s.tab == tabSettings {
		pane = s.settings.help()
	} else {
		pane = s.keys.help()
		tab = with(k.Tab, "settings")
	}
	if s.Capturing() {
		return pane
	}
	short := append(append([]key.Binding{}, pane.short...), tab, k.Refresh, k.Back)
	full := append([][]key.Binding{{tab, k.Refresh, k.OpenWeb, k.Findings, k.Doctor, k.Back}}, pane.full...)
	return helpMap{short: short, full: full}
}

func (s *projectScreen) Update(msg tea.Msg) (screen, tea.Cmd) {
	switch msg := msg.(type) {
	case projectLoadedMsg:
		if !s.info.accept(msg.id) {
			return s, nil
		}
		if msg.err != nil {
			s.info.fail(msg.err)
			return s, tea.Batch(s.sh.failedOnce(msg.err, true), s.refreshed())
		}
		s.info.set(msg.project)
		hadPath, hadID := s.project.Path != "", s.project.ID != 0
		s.project = msg.project
		var uses, rotations tea.Cmd
		if !hadPath {
			uses = s.loadUses()
		}
		if !hadID {
			rotations = s.loadRotations()
		}
		return s, tea.Batch(s.opened(), s.refreshed(), uses, rotations)
	case settingsLoadedMsg:
		if !s.settings.data.accept(msg.id) {
			return s, nil
		}
		cmd := s.settings.loaded(msg)
		s.keys.followSettings(s.settings.data)
		// A project on an external Sentry whose keys this console does not
		// reach has none to show first: it opens on its settings.
		if v := s.settings.data.val.s; !s.tabChosen && s.settings.data.has && v != nil && !v.Integrated && s.settings.canUseExternal() && s.sh.deps.Sentry == nil {
			s.tab = tabSettings
		}
		if s.keysElsewhere() {
			return s, tea.Batch(cmd, s.refreshed(), s.loadKeys())
		}
		return s, tea.Batch(cmd, s.refreshed(), s.loadUses())
	case keysLoadedMsg:
		if !s.keys.data.accept(msg.id) {
			return s, nil
		}
		cmd := s.keys.loaded(msg)
		return s, tea.Batch(cmd, s.refreshed(), s.loadUses())
	case doctorDoneMsg:
		if !s.doctor.accept(msg.id) {
			return s, nil
		}
		s.doctor.set(msg.checks)
		return s, msgCmd(openDialogMsg{d: doctorDialog(s.sh, s.project, s.keys, s.tab == tabKeys, msg.checks)})
	case usesLoadedMsg:
		if s.keys.uses.accept(msg.id) {
			s.keys.usesLoaded(msg)
		}
		return s, nil
	case openRotationsMsg:
		s.keys.rotationsLoaded(msg)
		return s, nil
	case writeDoneMsg:
		return s, s.changed(msg.w.project(), msg.w.changed())
	case projectChangedMsg:
		return s, s.changed(msg.project, msg.c)
	case tea.PasteMsg:
		if s.tab == tabKeys {
			return s, s.keys.update(msg, s.project)
		}
	case tea.KeyPressMsg:
		return s, s.onKey(msg)
	}
	return s, nil
}

// changed updates the screen from what a change did in project, when it
// is this screen's.
func (s *projectScreen) changed(p projectscope.Project, c changes) tea.Cmd {
	if !sameProject(p, s.project) {
		return nil
	}
	s.settings.written(c)
	s.keys.written(c)
	s.keys.followSettings(s.settings.data)
	var cmd tea.Cmd
	if c.stale || s.keysElsewhere() {
		cmd = s.loadKeys() // the list may be out of date; its uses follow it
	} else {
		cmd = s.loadUses() // a key or a variable changed
	}
	if c.settingsStale {
		cmd = tea.Batch(cmd, s.loadSettings())
	}
	// A rotation or a delete may have opened or closed one.
	return tea.Batch(cmd, s.loadRotations())
}

// opened records a project that answered: its host worked, and it joins
// the recent projects, by ID and path.
func (s *projectScreen) opened() tea.Cmd {
	d, host, p := s.sh.deps, s.sh.deps.Host, RecentProject{ID: s.project.ID, Path: s.project.Path}
	return sideEffect(func() {
		if d.HostWorked != nil {
			d.HostWorked(host)
		}
		if d.ProjectOpened != nil {
			d.ProjectOpened(host, p)
		}
	})
}

// refreshed says "Refreshed." once a refresh the user asked for is back
// without errors; errors were shown where they belong.
func (s *projectScreen) refreshed() tea.Cmd {
	if !s.refreshing || s.info.loading() || s.settings.data.loading() || s.keys.data.loading() {
		return nil
	}
	s.refreshing = false
	if s.info.err != nil || s.settings.data.err != nil || s.keys.data.err != nil {
		return nil
	}
	return statusCmd(statusSuccess, "Refreshed.")
}

func (s *projectScreen) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := s.sh.keys
	if s.Capturing() {
		return s.keys.update(msg, s.project)
	}
	switch {
	case key.Matches(msg, k.Back) && s.tab == tabKeys && s.keys.query != "":
		return s.keys.update(msg, s.project) // one esc clears the key filter
	case key.Matches(msg, k.Back):
		return msgCmd(backMsg{})
	case key.Matches(msg, k.Tab):
		s.tab, s.tabChosen = 1-s.tab, true
		return nil
	case key.Matches(msg, k.OpenWeb):
		return openWeb(s.sh, projectscope.SettingsPage(s.sh.deps.Host, s.project))
	case key.Matches(msg, k.Findings):
		return showFindings(s.sh, s.project, s.keys)
	case key.Matches(msg, k.Doctor) && !s.doctor.loading():
		// Said briefly: the answer opens its own box; the spinner turns meanwhile.
		running := statusMsg{text: "Running the doctor's checks on " + clean(s.project.Name()) + "…", kind: statusInfo, ttl: 2 * time.Second}
		return tea.Batch(msgCmd(running),
			doctorCmd(s.sh.ctx(), s.sh.api, s.sh.deps.RequestTimeout, s.doctor.start(), s.project.Ref, doctorOptions(s.sh, s.settings.noIntegrated), s.sh.explain, s.sh.clock.Now()))
	case key.Matches(msg, k.Refresh):
		s.refreshing = true
		return tea.Batch(s.loadInfo(), s.loadSettings(), s.loadKeys(), s.loadRotations())
	}
	if s.tab == tabSettings {
		return s.settings.update(msg, s.project, s.keys.gitlabKeys)
	}
	return s.keys.update(msg, s.project)
}

// projectHeader is the lines above a pane: the title, the tabs and a blank.
const projectHeader = 3

func (s *projectScreen) mouse(ev tea.Mouse, wheel bool) tea.Cmd {
	if !wheel && ev.Y == 1 { // the tabs
		if ev.X < 1+lipgloss.Width(s.sh.styles.TabActive.Render("Settings"+s.settings.badge())) {
			s.tab, s.tabChosen = tabSettings, true
		} else {
			s.tab, s.tabChosen = tabKeys, true
		}
		return nil
	}
	if s.tab != tabKeys {
		return nil
	}
	ev.Y -= projectHeader
	return s.keys.mouse(ev, wheel, s.project)
}

// openWeb opens url in the browser, off the UI goroutine, and says where;
// with no browser (over SSH) the status line gives the address.
func openWeb(sh *shared, url string) tea.Cmd {
	open := sh.deps.OpenURL
	return func() tea.Msg {
		if open == nil || open(url) != nil {
			return statusMsg{text: "Open in your browser: " + clean(url), kind: statusInfo, ttl: 30 * time.Second}
		}
		return statusMsg{text: "Opened " + clean(url) + " in your browser.", kind: statusSuccess}
	}
}

func (s *projectScreen) View() string {
	st := s.sh.styles
	var b strings.Builder
	b.WriteString(breadcrumb(st, s.sh.deps.Host, s.project.Name(), s.width) + "\n")
	settingsTab, keysTab := "Settings"+s.settings.badge(), "Client keys"+s.keys.badge()
	if s.tab == tabSettings {
		settingsTab, keysTab = st.TabActive.Render(settingsTab), st.TabInactive.Render(keysTab)
	} else {
		settingsTab, keysTab = st.TabInactive.Render(settingsTab), st.TabActive.Render(keysTab)
	}
	b.WriteString(" " + settingsTab + " " + keysTab + "\n\n")
	if s.info.failedEmpty() && errors.Is(s.info.err, apiclient.ErrProjectNotFound) {
		for _, l := range wrap("Could not open the project. "+s.sh.explain(s.info.err), s.width-2) {
			b.WriteString(" " + st.Error.Render(l) + "\n")
		}
		return b.String()
	}
	if s.tab == tabSettings {
		b.WriteString(s.settings.view())
	} else {
		b.WriteString(s.keys.view())
	}
	return b.String()
}
