package tui

import (
	tea "charm.land/bubbletea/v2"
)

// maxProjectPages bounds the paged list, as apiclient bounds key lists.
const maxProjectPages = 2000

// projectPages are the list's projects as the server pages them: the first
// page at once, more as the cursor nears the end; a group's projects come
// whole.
type projectPages struct {
	items []projectItem
	ids   map[int64]bool // ids in items, so search results are not shown twice
	// load counts the pages that came, with the last error and the
	// request in flight.
	load     loadable[int]
	next     int
	complete bool
}

func newProjectPages() projectPages { return projectPages{ids: map[int64]bool{}, next: 1} }

// take adds a page's projects not seen yet, and returns them. A server
// may offer pages forever: the list is complete at a page that goes
// nowhere or adds nothing new, and after maxProjectPages in any case.
func (p *projectPages) take(msg projectsLoadedMsg) []projectItem {
	var added []projectItem
	for _, pr := range msg.projects {
		if p.ids[pr.ID] {
			continue
		}
		p.ids[pr.ID] = true
		it := itemFrom(pr)
		p.items = append(p.items, it)
		added = append(added, it)
	}
	p.load.set(p.load.val + 1)
	p.next, p.complete = msg.nextPage, msg.complete
	if !msg.complete && (msg.nextPage <= msg.page || len(added) == 0 || p.load.val >= maxProjectPages) {
		p.complete = true
	}
	return added
}

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
