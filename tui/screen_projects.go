package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/safetext"
)

const (
	searchDebounce = 300 * time.Millisecond
	// maxProjectPages bounds the paged list, as apiclient bounds key lists.
	maxProjectPages = 2000
	// maxField cuts a project's path or name: a server could send megabytes.
	maxField = 300
)

// projectItem is one pickable project.
type projectItem struct {
	id     int64
	path   string
	name   string
	lower  string // path and name, lower-cased, for filtering
	recent bool
}

func itemFrom(p apiclient.Project) projectItem {
	path := safetext.Excerpt(p.PathWithNamespace, maxField)
	name := safetext.Excerpt(p.Name, maxField)
	return projectItem{id: p.ID, path: path, name: name, lower: strings.ToLower(path + " " + name)}
}

func (it projectItem) ref() apiclient.ProjectRef {
	if it.id > 0 {
		return apiclient.ProjectID(it.id)
	}
	ref, _ := apiclient.ParseProjectRef(it.path)
	return ref
}

// rowKind says where a visible row comes from.
type rowKind uint8

const (
	rowTyped  rowKind = iota // the filter text itself, as an ID or path
	rowRecent                // recently opened
	rowLoaded                // from the paged list
	rowFound                 // from a server-side search
)

type row struct {
	kind rowKind
	idx  int
}

// projectsScreen lists the projects the user maintains. The first page shows
// at once and more pages load as the cursor nears the end; typing filters
// what is loaded and, while the list is incomplete, asks the server too.
type projectsScreen struct {
	sh *shared

	recent []projectItem
	items  []projectItem
	ids    map[int64]bool // ids in items, so search results are not shown twice

	listID   uint64 // request in flight for the paged list
	nextPage int
	pages    int // pages loaded
	complete bool
	listErr  error

	filter    textinput.Model
	filtering bool
	query     string // lower-cased filter text
	typed     *apiclient.ProjectRef

	searchSeq     int
	searchID      uint64
	searchQuery   string
	found         []projectItem
	searchPending bool

	rows           []row
	cursor, offset int
	height         int
}

func newProjectsScreen(sh *shared) *projectsScreen {
	ti := textinput.New()
	ti.Prompt = "/ "
	ti.Placeholder = "filter, or type an ID or group/project"
	ti.CharLimit = 255
	s := &projectsScreen{sh: sh, filter: ti, ids: map[int64]bool{}, nextPage: 1}
	for _, r := range sh.deps.Recent {
		if ref, err := apiclient.ParseProjectRef(r); err == nil {
			p := clean(ref.String())
			s.recent = append(s.recent, projectItem{path: p, lower: strings.ToLower(p), recent: true})
		}
	}
	s.rebuild()
	return s
}

func (s *projectsScreen) Init() tea.Cmd { return s.loadPage() }

func (s *projectsScreen) loadPage() tea.Cmd {
	if s.complete || s.listID != 0 || s.sh.api == nil {
		return nil
	}
	s.listID = nextRequestID()
	return loadProjectsCmd(s.sh.api, s.sh.deps.RequestTimeout, s.listID, "", s.nextPage)
}

func (s *projectsScreen) Title() string { return "projects" }

func (s *projectsScreen) Busy() bool { return s.listID != 0 || s.searchID != 0 || s.searchPending }

func (s *projectsScreen) Capturing() bool { return s.filtering }

func (s *projectsScreen) Help() helpMap {
	k := s.sh.keys
	if s.filtering {
		done := key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop filtering"))
		return helpMap{short: []key.Binding{k.Open, done, k.Up, k.Down}}
	}
	short := []key.Binding{k.Open, k.Filter, k.Up, k.Down, k.Refresh}
	return helpMap{short: short, full: [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom}, {k.Open, k.Filter, k.Refresh}}}
}

func (s *projectsScreen) Update(msg tea.Msg) (screen, tea.Cmd) {
	switch msg := msg.(type) {
	case projectsLoadedMsg:
		return s, s.onLoaded(msg)
	case searchTickMsg:
		if msg.seq != s.searchSeq || s.complete {
			return s, nil
		}
		s.searchPending = false
		s.searchID = nextRequestID()
		return s, loadProjectsCmd(s.sh.api, s.sh.deps.RequestTimeout, s.searchID, msg.query, 1)
	case tea.PasteMsg:
		if !s.filtering {
			s.filtering = true
			s.filter.Focus()
		}
		var cmd tea.Cmd
		s.filter, cmd = s.filter.Update(msg)
		return s, tea.Batch(cmd, s.filterChanged())
	case tea.KeyPressMsg:
		return s, s.onKey(msg)
	}
	return s, nil
}

func (s *projectsScreen) onLoaded(msg projectsLoadedMsg) tea.Cmd {
	switch {
	case awaited(msg.id, s.listID):
		s.listID = 0
		if msg.err != nil {
			s.listErr = msg.err
			return s.failed(msg.err)
		}
		s.listErr = nil
		added := 0
		for _, p := range msg.projects {
			if s.ids[p.ID] {
				continue
			}
			added++
			s.ids[p.ID] = true
			it := itemFrom(p)
			s.items = append(s.items, it)
			for i := range s.recent { // recent entries know only their path until now
				if s.recent[i].path == it.path {
					s.recent[i].id, s.recent[i].name, s.recent[i].lower = it.id, it.name, it.lower
				}
			}
		}
		s.pages++
		s.nextPage, s.complete = msg.nextPage, msg.complete
		// A server may offer pages forever: stop at one that goes nowhere or
		// adds nothing new, and after maxProjectPages in any case.
		if !msg.complete && (msg.nextPage <= msg.page || added == 0 || s.pages >= maxProjectPages) {
			s.complete = true
		}
		s.rebuild()
		return s.maybeLoadMore()
	case awaited(msg.id, s.searchID):
		s.searchID = 0
		if msg.err != nil {
			return s.failed(msg.err)
		}
		s.searchQuery = msg.search
		s.found = s.found[:0]
		for _, p := range msg.projects {
			s.found = append(s.found, itemFrom(p))
		}
		s.rebuild()
	}
	return nil
}

func (s *projectsScreen) failed(err error) tea.Cmd {
	if errors.Is(err, apiclient.ErrUnauthorized) {
		return msgCmd(authFailedMsg{err})
	}
	return statusCmd(statusError, s.sh.explain(err))
}

func (s *projectsScreen) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := s.sh.keys
	if s.filtering {
		switch {
		case msg.String() == "esc":
			s.filtering = false
			s.filter.Blur()
			return nil
		case key.Matches(msg, k.Open):
			return s.open()
		case msg.String() == "up" || msg.String() == "down" || msg.String() == "pgup" || msg.String() == "pgdown":
			return s.move(msg)
		}
		var cmd tea.Cmd
		s.filter, cmd = s.filter.Update(msg)
		return tea.Batch(cmd, s.filterChanged())
	}
	switch {
	case key.Matches(msg, k.Open):
		return s.open()
	case key.Matches(msg, k.Filter):
		s.filtering = true
		return s.filter.Focus()
	case key.Matches(msg, k.Refresh):
		s.items, s.ids, s.nextPage, s.pages, s.complete, s.listID = nil, map[int64]bool{}, 1, 0, false, 0
		s.found, s.searchQuery = nil, ""
		s.rebuild()
		return tea.Batch(s.loadPage(), s.filterChanged())
	case key.Matches(msg, k.Back):
		if s.query != "" {
			s.filter.SetValue("")
			return s.filterChanged()
		}
		return nil
	case key.Matches(msg, k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom):
		return s.move(msg)
	}
	// Type to filter: a printable key that is not bound starts the filter.
	if txt := msg.Text; txt != "" && msg.Mod == 0 && !strings.ContainsAny(txt, "\x00\x1b") {
		s.filtering = true
		focus := s.filter.Focus()
		s.filter.SetValue(s.filter.Value() + txt)
		s.filter.CursorEnd()
		return tea.Batch(focus, s.filterChanged())
	}
	return nil
}

func (s *projectsScreen) move(msg tea.KeyPressMsg) tea.Cmd {
	s.cursor = moveCursor(msg, s.sh.keys, s.cursor, len(s.rows), s.height-1)
	return s.maybeLoadMore()
}

// maybeLoadMore fetches the next page when the cursor nears the end.
func (s *projectsScreen) maybeLoadMore() tea.Cmd {
	if s.complete || s.listID != 0 || s.listErr != nil {
		return nil
	}
	if s.query == "" && s.cursor < len(s.rows)-max(s.height, 10) {
		return nil
	}
	return s.loadPage()
}

// filterChanged refilters locally and, while the list is incomplete,
// schedules a debounced server search.
func (s *projectsScreen) filterChanged() tea.Cmd {
	q := strings.ToLower(strings.TrimSpace(s.filter.Value()))
	if q == s.query {
		return nil
	}
	s.query = q
	s.typed = nil
	if q != "" && (strings.Contains(q, "/") || isDigits(q)) {
		if ref, err := apiclient.ParseProjectRef(strings.TrimSpace(s.filter.Value())); err == nil {
			s.typed = &ref
		}
	}
	s.cursor, s.offset = 0, 0
	s.rebuild()
	s.searchSeq++
	if q == "" || s.complete {
		s.searchPending = false
		return nil
	}
	s.searchPending = true
	seq, query := s.searchSeq, strings.TrimSpace(s.filter.Value())
	return after(searchDebounce, func(time.Time) tea.Msg { return searchTickMsg{seq: seq, query: query} })
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// rebuild recomputes the visible rows; it runs on every keystroke of the
// filter, so it allocates nothing per item.
func (s *projectsScreen) rebuild() {
	s.rows = s.rows[:0]
	q := s.query
	if s.typed != nil {
		s.rows = append(s.rows, row{kind: rowTyped})
	}
	recentPaths := make(map[string]bool, len(s.recent))
	for i, it := range s.recent {
		recentPaths[it.path] = true
		if q == "" || strings.Contains(it.lower, q) {
			s.rows = append(s.rows, row{rowRecent, i})
		}
	}
	for i := range s.items {
		it := &s.items[i]
		if recentPaths[it.path] {
			continue
		}
		if q == "" || strings.Contains(it.lower, q) {
			s.rows = append(s.rows, row{rowLoaded, i})
		}
	}
	if q != "" && strings.EqualFold(s.searchQuery, strings.TrimSpace(s.filter.Value())) {
		for i, it := range s.found {
			if !s.ids[it.id] && !recentPaths[it.path] {
				s.rows = append(s.rows, row{rowFound, i})
			}
		}
	}
	s.cursor = max(min(s.cursor, len(s.rows)-1), 0)
}

func (s *projectsScreen) item(r row) projectItem {
	switch r.kind {
	case rowRecent:
		return s.recent[r.idx]
	case rowLoaded:
		return s.items[r.idx]
	case rowFound:
		return s.found[r.idx]
	}
	return projectItem{path: clean(s.typed.String())}
}

func (s *projectsScreen) open() tea.Cmd {
	if len(s.rows) == 0 {
		if q := strings.TrimSpace(s.filter.Value()); q != "" {
			if _, err := apiclient.ParseProjectRef(q); err != nil {
				return statusCmd(statusError, clean(err.Error()))
			}
		}
		return nil
	}
	r := s.rows[s.cursor]
	if r.kind == rowTyped {
		return msgCmd(openProjectMsg{ref: *s.typed, name: clean(s.typed.String())})
	}
	it := s.item(r)
	return msgCmd(openProjectMsg{ref: it.ref(), name: it.path})
}

func (s *projectsScreen) View(width, height int) string {
	st := s.sh.styles
	var b strings.Builder
	count := fmt.Sprintf("%d loaded", len(s.items))
	if s.complete {
		count = fmt.Sprintf("%d", len(s.items))
	}
	b.WriteString(st.Title.Render(" Projects you maintain") + st.Subtle.Render(" on "+s.sh.deps.Host+" ("+count+")") + "\n")
	if s.filtering || s.query != "" {
		s.filter.SetWidth(max(width-4, 10))
		b.WriteString(" " + s.filter.View() + "\n")
	} else {
		b.WriteString(st.Subtle.Render(" type to filter, or type a project ID or group/project path") + "\n")
	}
	listH := height - 3
	s.height = listH
	s.offset = scrollWindow(s.cursor, s.offset, listH, len(s.rows))
	switch {
	case len(s.rows) == 0 && s.listID != 0 && len(s.items) == 0:
		b.WriteString(st.Subtle.Render(" Loading projects…"))
	case len(s.rows) == 0 && s.listErr != nil:
		b.WriteString(st.Error.Render(" Could not load projects: "+s.sh.explain(s.listErr)) + "\n")
	case len(s.rows) == 0 && s.query != "":
		b.WriteString(st.Subtle.Render(" No project matches. Type a full path (group/project) or an ID to open it directly."))
	case len(s.rows) == 0:
		b.WriteString(st.Subtle.Render(" You maintain no projects here. Type a project ID or path to open one."))
	}
	pathW := min(max(width/2, 20), 60)
	end := min(s.offset+listH, len(s.rows))
	for i := s.offset; i < end; i++ {
		r := s.rows[i]
		var line string
		switch r.kind {
		case rowTyped:
			line = "  → open " + clean(s.typed.String())
		default:
			it := s.item(r)
			tag := ""
			if r.kind == rowRecent {
				tag = "  (recent)"
			}
			line = "  " + pad(it.path, pathW) + " " + it.name + tag
		}
		line = pad(line, width)
		if i == s.cursor {
			line = st.Selected.Render(line)
		}
		b.WriteString(line + "\n")
	}
	if end == len(s.rows) && !s.complete && s.listID != 0 && len(s.rows) > 0 {
		b.WriteString(st.Subtle.Render("  loading more…"))
	}
	return b.String()
}
