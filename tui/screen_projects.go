package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// projectsScreen lists the projects the user maintains. Its keys are the
// list's (q quits, j/k move, enter opens) until / starts the filter, where
// everything typed is text ("type to filter, or a project ID or path") and
// esc ends it, as in gh-dash, lazygit and k9s. The first page shows at once
// and more pages load as the cursor nears the end; while the list is
// incomplete, the server is searched too.
//
// Each part keeps its own state, in its own file: the pages
// (projects_pages.go), the filter and the server's search
// (projects_filter.go), the recent projects, the group scope, the marks
// and the changes to them (projects_bulk.go), the overviews; the rows they
// make (projects_rows.go) and how they are drawn (projects_view.go).
type projectsScreen struct {
	sh *shared

	pages     projectPages
	filter    projectFilter
	recent    recentProjects
	scope     groupScope
	marks     marks
	overviews overviews

	rows          []row
	list          listView
	width, height int
	// drawn keeps rows as last drawn (projects_view.go), a cache only.
	drawn   map[rowKey]string
	redrawn int // rows drawn anew, for the tests
}

func newProjectsScreen(sh *shared) *projectsScreen {
	s := &projectsScreen{sh: sh, pages: newProjectPages(), filter: newProjectFilter(), recent: recentFrom(sh.deps.Recent),
		scope: scopeFrom(sh.deps), marks: marks{}, overviews: newOverviews(0)}
	s.rebuild()
	return s
}

func (s *projectsScreen) Title() string { return s.scope.title() }

func (s *projectsScreen) Busy() bool {
	return s.pages.load.loading() || s.filter.found.loading() || s.filter.waiting
}

// Capturing: the filter is being typed in.
func (s *projectsScreen) Capturing() bool { return s.filter.input.Focused() }

func (s *projectsScreen) SetSize(w, h int) {
	s.width, s.height = w, h
	s.filter.input.SetWidth(max(w-4, 10))
	s.list.setHeight(h - 3)
}

func (s *projectsScreen) Help() helpMap {
	k := s.sh.keys
	filtering := s.Capturing()
	refresh := k.Refresh
	nav := []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}
	if filtering {
		refresh = k.TextRefresh
		nav = []key.Binding{k.TextUp, k.TextDown, k.TextPageUp, k.TextPageDown, k.TextTop, k.TextBottom}
	}
	// Only what acts: on an empty list (nothing loaded, nothing matches)
	// there is nothing to open, move to or mark.
	rows := len(s.rows) > 0
	var short []key.Binding
	if rows {
		short = append(short, k.Open)
	}
	if filtering {
		short = append(short, with(k.ClearFilter, "end filter"))
	} else {
		short = append(short, k.FilterKeys)
	}
	if rows {
		short = append(short, k.Move)
	}
	short = append(short, refresh)
	if it, ok := s.selected(); ok && it.recent {
		short = append(short, k.Forget)
	}
	switch {
	case len(s.marks) > 0:
		short = append([]key.Binding{k.Bulk}, short...)
	case s.sh.hasBulk:
		short = append([]key.Binding{with(k.Bulk, "last report")}, short...)
	case rows:
		short = append(short, k.Mark)
	}
	return helpMap{short: short, full: [][]key.Binding{
		{k.Open, k.FilterKeys, with(k.ClearFilter, "end filter"), refresh, k.Forget},
		{k.Mark, k.MarkAll, k.Bulk, k.Scope},
		nav,
	}}
}

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
