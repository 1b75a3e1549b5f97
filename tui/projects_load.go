package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/internal/wording"
)

// How the projects list reads its parts, and reads them again: the pages,
// the server's search for the filter, the overviews of the rows on screen,
// and a new group scope.

func (s *projectsScreen) Init() tea.Cmd { return s.loadPage() }

// loadPage asks for the next page, or for the group's projects.
func (s *projectsScreen) loadPage() tea.Cmd {
	if s.pages.complete || s.pages.load.loading() || s.sh.api == nil {
		return nil
	}
	id := s.pages.load.start()
	if g := s.scope.group; g != nil {
		return loadGroupProjectsCmd(s.sh.ctx(), s.sh.api, s.sh.deps.RequestTimeout, id, *g, s.scope.subgroups)
	}
	return loadProjectsCmd(s.sh.ctx(), s.sh.api, s.sh.deps.RequestTimeout, id, "", s.pages.next)
}

// maybeLoadMore fetches the next page when the cursor nears the end.
func (s *projectsScreen) maybeLoadMore() tea.Cmd {
	if s.pages.complete || s.pages.load.loading() || s.pages.load.err != nil {
		return nil
	}
	if s.filter.query == "" && !s.list.nearEnd() {
		return nil
	}
	return s.loadPage()
}

// onLoaded takes a page of the list, or the answer of a search.
func (s *projectsScreen) onLoaded(msg projectsLoadedMsg) tea.Cmd {
	switch {
	case s.pages.load.accept(msg.id):
		return s.paged(msg)
	case s.filter.found.accept(msg.id):
		return s.searched(msg)
	}
	return nil
}

func (s *projectsScreen) paged(msg projectsLoadedMsg) tea.Cmd {
	var dropped tea.Cmd
	if s.scope.learnPath(msg.groupPath) {
		dropped = s.dropMarksOutside()
	}
	if msg.err != nil {
		s.pages.load.fail(msg.err)
		if len(s.pages.items) == 0 && !s.sh.loginHelps(msg.err) {
			return dropped // the pane shows the error
		}
		return tea.Batch(dropped, s.sh.failed(msg.err))
	}
	for _, it := range s.pages.take(msg) {
		s.recent.learn(it)
	}
	s.rebuild()
	return tea.Batch(dropped, s.maybeLoadMore(), s.loadOverviews())
}

// reload reads the list again from its first page, its overviews too.
func (s *projectsScreen) reload() tea.Cmd {
	s.pages = newProjectPages()
	s.filter.forgetSearch()
	s.overviews = newOverviews(s.overviews.gen + 1)
	s.rebuild()
	return tea.Batch(s.loadPage(), s.search(), s.loadOverviews())
}

// filterChanged refilters locally and, while the list is incomplete,
// schedules a debounced server search.
func (s *projectsScreen) filterChanged() tea.Cmd {
	if !s.filter.changed(s.sh.deps.Host) {
		return nil
	}
	s.list.selectIndex(0)
	s.rebuild()
	return s.search()
}

func (s *projectsScreen) search() tea.Cmd {
	return s.filter.schedule(s.sh.clock, s.pages.complete)
}

// searchTick asks the server once the filter stopped changing.
func (s *projectsScreen) searchTick(msg searchTickMsg) tea.Cmd {
	if msg.seq != s.filter.seq || s.pages.complete || s.sh.api == nil {
		return nil
	}
	s.filter.waiting = false
	return loadProjectsCmd(s.sh.ctx(), s.sh.api, s.sh.deps.RequestTimeout, s.filter.found.start(), msg.query, 1)
}

// searched takes the server's search answer.
func (s *projectsScreen) searched(msg projectsLoadedMsg) tea.Cmd {
	if msg.err != nil {
		s.filter.found.fail(msg.err)
		return s.sh.failed(msg.err)
	}
	s.filter.foundFor = msg.search
	found := make([]projectItem, 0, len(msg.projects))
	for _, p := range msg.projects {
		found = append(found, itemFrom(p))
	}
	s.filter.found.set(found)
	s.rebuild()
	return s.loadOverviews()
}

// clearFilter empties the filter: the whole list again.
func (s *projectsScreen) clearFilter() tea.Cmd {
	s.filter.input.SetValue("")
	return s.filterChanged()
}

// loadOverviews starts the overviews of the rows on screen that have none,
// up to overviewConcurrency at once; each answer starts the next.
func (s *projectsScreen) loadOverviews() tea.Cmd {
	if s.sh.api == nil {
		return nil
	}
	o := &s.overviews
	var cmds []tea.Cmd
	start, end := s.list.window()
	for i := start; i < end && o.inFlight < overviewConcurrency; i++ {
		it := s.item(s.rows[i])
		if s.rows[i].kind == rowTyped || it.id == 0 || it.notMaintained {
			continue
		}
		if _, ok := o.byID[it.id]; ok {
			continue
		}
		o.byID[it.id] = overview{loading: true}
		o.inFlight++
		cmds = append(cmds, loadOverviewCmd(s.sh.ctx(), s.sh.api, s.sh.deps.RequestTimeout, o.gen, it.id, s.sh.deps.Rotations))
	}
	return tea.Batch(cmds...)
}

// dropMarksOutside unmarks the projects the list's group does not hold,
// and says so: they were marked a moment ago, elsewhere.
func (s *projectsScreen) dropMarksOutside() tea.Cmd {
	n := s.marks.dropOutside(s.scope)
	if n == 0 {
		return nil
	}
	them := "them"
	if n == 1 {
		them = "it"
	}
	return statusCmd(statusInfo, fmt.Sprintf("Unmarked %s outside group %s: a change acts only on projects the list shows. %s shows the group that holds %s.",
		wording.Projects(n, "marked"), clean(s.scope.group.String()), keyName(s.sh.keys.Scope), them))
}

// rescoped shows the projects of the group asked for (nil: all the ones
// you maintain).
func (s *projectsScreen) rescoped(msg scopeMsg) tea.Cmd {
	s.scope = groupScope{group: msg.group, subgroups: msg.subgroups && msg.group != nil}
	dropped := s.dropMarksOutside()
	s.clearFilter()
	return tea.Batch(dropped, s.reload())
}
