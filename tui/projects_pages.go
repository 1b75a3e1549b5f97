package tui

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
