package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// How the projects list answers messages, keys and the mouse: each part
// acts on its own state, and the list is drawn from them (projects_view.go).

func (s *projectsScreen) Update(msg tea.Msg) (screen, tea.Cmd) {
	switch msg := msg.(type) {
	case projectsLoadedMsg:
		return s, s.onLoaded(msg)
	case searchTickMsg:
		return s, s.searchTick(msg)
	case projectLoadedMsg:
		// A project opened: it joins the recent list, first, once.
		if msg.err == nil {
			s.addRecent(projectItem{id: msg.project.ID, path: clean(msg.project.Name()), recent: true})
		}
	case overviewLoadedMsg:
		if !s.overviews.took(msg) {
			return s, nil
		}
		return s, s.loadOverviews()
	case scopeMsg:
		return s, s.rescoped(msg)
	case bulkDoneMsg:
		// A bulk change ran through: the marks have served, but for the
		// projects that failed, marked still to try again.
		s.marks.keepFailed(msg.failed)
		return s, nil
	case writeDoneMsg:
		return s, s.changed(msg.w.project())
	case projectChangedMsg:
		return s, s.changed(msg.project)
	case tea.PasteMsg:
		// A pasted path or URL is for the filter, focused or not.
		focus := s.filter.focus()
		var cmd tea.Cmd
		s.filter.input, cmd = s.filter.input.Update(msg)
		return s, tea.Batch(focus, cmd, s.filterChanged())
	case tea.KeyPressMsg:
		return s, s.onKey(msg)
	}
	return s, nil
}

// changed reads a changed project's overview again: it is old.
func (s *projectsScreen) changed(p projectscope.Project) tea.Cmd {
	if p.ID != 0 && s.overviews.stale(p.ID) {
		return s.loadOverviews()
	}
	return nil
}

func (s *projectsScreen) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := s.sh.keys
	// Keys that are not text act in both modes.
	switch {
	case key.Matches(msg, k.Open):
		return s.open()
	case key.Matches(msg, k.Mark):
		return s.mark()
	case key.Matches(msg, k.MarkAll):
		s.markAll()
		return nil
	case key.Matches(msg, k.Bulk):
		return s.bulk()
	case key.Matches(msg, k.Scope):
		return s.rescope()
	case key.Matches(msg, k.TextRefresh):
		return s.reload()
	case key.Matches(msg, k.Forget):
		return s.forget()
	}
	if s.Capturing() {
		return s.filterKey(msg)
	}
	switch {
	case key.Matches(msg, k.FilterKeys):
		return s.filter.focus()
	case key.Matches(msg, k.Refresh):
		return s.reload()
	case s.list.move(msg, k.nav()):
		return tea.Batch(s.maybeLoadMore(), s.loadOverviews())
	case msg.Text != "":
		// A letter typed as if the list filtered by itself: say how.
		return statusCmd(statusInfo, "To filter the list, or to open a project by ID or path, press "+keyName(k.FilterKeys)+" first. "+keyName(k.Quit)+" quits.")
	}
	return nil
}

// filterKey is a key typed in the filter: text, the arrows moving the
// list, or esc, which ends the filter with the whole list again.
func (s *projectsScreen) filterKey(msg tea.KeyPressMsg) tea.Cmd {
	k := s.sh.keys
	switch {
	case key.Matches(msg, k.ClearFilter):
		s.filter.blur()
		return tea.Batch(s.clearFilter(), s.loadOverviews()) // rows shown again may have none
	case key.Matches(msg, k.Help):
		return msgCmd(showHelpMsg{}) // no project path or name holds a '?'
	case s.list.move(msg, k.textNav()):
		return tea.Batch(s.maybeLoadMore(), s.loadOverviews())
	}
	var cmd tea.Cmd
	s.filter.input, cmd = s.filter.input.Update(msg)
	return tea.Batch(cmd, s.filterChanged(), s.loadOverviews())
}

// open opens the selected project, or the one typed.
func (s *projectsScreen) open() tea.Cmd {
	if len(s.rows) == 0 {
		if q := s.filter.text(); q != "" {
			if _, err := apiclient.ParseProjectRef(q); err != nil {
				return statusCmd(statusError, clean(err.Error()))
			}
		}
		return nil
	}
	r := s.rows[s.list.cursor]
	var open openProjectMsg
	typed := s.filter.typed
	switch {
	case r.kind == rowTyped && s.filter.foreign != "":
		return statusCmd(statusError, "That URL is a project on "+s.filter.foreign+", and errtrack is connected to "+clean(s.sh.deps.Host)+": open it with errtrack --host "+s.filter.foreign+".")
	case r.kind == rowTyped:
		open = openProjectMsg{ref: *typed, name: clean(typed.String())}
	default:
		it := s.item(r)
		if it.notMaintained {
			return statusCmd(statusInfo, it.path+": "+it.skip+", and error tracking's settings and keys need the Maintainer role, so it does not open here. Ask a project Owner or Maintainer to raise your role.")
		}
		open = openProjectMsg{ref: it.ref(), name: it.path}
	}
	// Back from the project, the list is whole again, with the cursor on
	// it: a filter kept would be silently appended to.
	s.filter.blur()
	s.clearFilter()
	return msgCmd(open)
}

// projectsHeader is the lines above the rows: the title and the filter.
const projectsHeader = 2

func (s *projectsScreen) mouse(ev tea.Mouse, wheel bool) tea.Cmd {
	if wheel {
		s.list.scroll(wheelDelta(ev))
		return tea.Batch(s.maybeLoadMore(), s.loadOverviews())
	}
	again, ok := s.list.click(ev.Y - projectsHeader)
	switch {
	case !ok:
		return nil
	case again:
		return s.open()
	}
	return s.loadOverviews()
}

// mark marks or unmarks the selected project, where the cursor stays (as
// k9s's and lazygit's space do): the row marked is the row seen marked.
func (s *projectsScreen) mark() tea.Cmd {
	it, ok := s.selected()
	switch {
	case !ok || it.id == 0:
		return nil
	case it.skip != "":
		return statusCmd(statusInfo, it.path+": "+it.skip+", so a change to several projects would skip it.")
	}
	s.marks.toggle(it)
	return nil
}

// markAll marks every project shown (the filter's matches), or, when all
// are marked already, unmarks them.
func (s *projectsScreen) markAll() {
	var shown []projectItem
	all := true
	for _, r := range s.rows {
		if r.kind == rowTyped {
			continue
		}
		if it := s.item(r); it.id != 0 && it.skip == "" {
			shown = append(shown, it)
			all = all && s.marks.has(it.id)
		}
	}
	for _, it := range shown {
		if all {
			delete(s.marks, it.id)
		} else {
			s.marks[it.id] = apiclient.Project{ID: it.id, PathWithNamespace: it.path, Name: it.name}
		}
	}
}

// addRecent puts it first in the recent list; back from the project, the
// cursor is on it.
func (s *projectsScreen) addRecent(it projectItem) {
	if it.id == 0 && it.path == "" {
		return
	}
	s.recent = s.recent.opened(it, s.pages.items)
	s.rebuild()
	for i, r := range s.rows {
		if r.kind == rowRecent && r.idx == 0 {
			s.list.selectIndex(i)
			break
		}
	}
}

// forget removes the selected recent project from the list and the config.
func (s *projectsScreen) forget() tea.Cmd {
	it, ok := s.selected()
	if !ok || !it.recent {
		return nil
	}
	s.recent = s.recent.without(it.path)
	s.rebuild()
	cmds := []tea.Cmd{statusCmd(statusInfo, "Removed "+it.path+" from the recent projects.")}
	if f, host := s.sh.deps.ForgetRecent, s.sh.deps.Host; f != nil {
		p := RecentProject{ID: it.id, Path: it.path}
		cmds = append(cmds, sideEffect(func() { f(host, p) }))
	}
	return tea.Batch(cmds...)
}

// rescope asks for the group whose projects the list shows: a path or ID
// (the current group, or the selected project's, to start from), with its
// subgroups or not; empty, all the projects you maintain. Marks stay: they
// name projects, not rows.
func (s *projectsScreen) rescope() tea.Cmd {
	value, sub := "", true
	if g := s.scope.group; g != nil {
		value, sub = g.String(), s.scope.subgroups
	} else if it, ok := s.selected(); ok {
		value = parentGroup(it.path)
	}
	d := inputDialog("Show the projects of which group?", []string{
		"A group's path or ID; empty for all the projects you maintain. ctrl+u clears the field.",
	}, "Group: ", value, "show", func(text string, sub bool) (tea.Msg, string) {
		if text == "" {
			return scopeMsg{}, ""
		}
		g, err := apiclient.ParseGroupRef(text)
		if err != nil {
			return nil, clean(err.Error())
		}
		return scopeMsg{group: &g, subgroups: sub}, ""
	}).withOption("with its subgroups", sub, s.sh.keys.Subgroups)
	return msgCmd(openDialogMsg{d: d})
}
