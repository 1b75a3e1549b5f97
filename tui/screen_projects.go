package tui

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/hosturl"
	"github.com/errtrack/errtrack/internal/safetext"
	"github.com/errtrack/errtrack/internal/workflow"
)

const (
	searchDebounce = 300 * time.Millisecond
	// maxProjectPages bounds the paged list, as apiclient bounds key lists.
	maxProjectPages = 2000
	// maxField cuts a project's path or name: a server could send megabytes.
	maxField = 300
	// overviewConcurrency is how many project overviews load at once.
	overviewConcurrency = 3
)

// projectItem is one pickable project.
type projectItem struct {
	id     int64
	path   string
	name   string
	lower  string // path and name, lower-cased, for filtering
	recent bool
	// skip says why a bulk change leaves the project alone (shown dimmed,
	// not markable); notMaintained: the user's role is below Maintainer,
	// so it is not opened either (every error tracking call would be
	// refused). role is the user's role there, when GitLab said it.
	skip          string
	notMaintained bool
	role          string
}

func itemFrom(p apiclient.Project) projectItem {
	path := safetext.Excerpt(p.PathWithNamespace, maxField)
	name := safetext.Excerpt(p.Name, maxField)
	it := projectItem{id: p.ID, path: path, name: name, lower: strings.ToLower(path + " " + name)}
	// One decision for both front ends: a group's list holds every
	// project the user has a role in, the skipped ones read whole.
	if skip := workflow.SkipReason(p); skip != "" {
		it.skip, it.notMaintained = skip, !p.Archived
		if lvl := p.AccessLevel(); lvl > 0 {
			it.role = workflow.RoleName(lvl)
		}
	}
	return it
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

// projectsScreen lists the projects the user maintains. Everything typed is
// filter text, as the screen promises ("type to filter, or type a project
// ID or path"): q, j or r are letters of a path here. The first page shows
// at once and more pages load as the cursor nears the end; while the list
// is incomplete, the server is searched too.
type projectsScreen struct {
	sh *shared

	recent []projectItem
	items  []projectItem
	ids    map[int64]bool // ids in items, so search results are not shown twice

	// pages is the paged list's loading: how many pages came, the last
	// error, the request in flight (loadable, as every screen's loads).
	pages    loadable[int]
	nextPage int
	complete bool

	filter textinput.Model
	query  string // lower-cased filter text
	typed  *apiclient.ProjectRef
	// foreign: the typed URL names another GitLab than the one connected.
	foreign string

	// searchRes is the server-side search's answer for searchQuery, once
	// the debounce (searchSeq, searchPending) let it go.
	searchSeq     int
	searchRes     loadable[[]projectItem]
	searchQuery   string
	searchPending bool

	rows          []row
	list          listView
	width, height int

	// group scopes the list to a group's projects (errtrack --group).
	group     *apiclient.GroupRef
	subgroups bool
	// marked are the projects a bulk change acts on, by ID, with what
	// the plan needs of each.
	marked map[int64]apiclient.Project

	// overviews says how each project's error tracking is set up, loaded
	// for the rows on screen, a few at a time, and kept until a refresh.
	overviews   map[int64]overview
	overviewGen int
	inFlight    int
}

// scopeMsg changes the group the list shows (nil: all your projects).
type scopeMsg struct {
	group     *apiclient.GroupRef
	subgroups bool
}

type overview struct {
	loading bool
	o       workflow.Overview
}

func newProjectsScreen(sh *shared) *projectsScreen {
	s := &projectsScreen{sh: sh, filter: newTextInput("/ ", "type to filter, or a project ID or group/project path"), ids: map[int64]bool{}, nextPage: 1, overviews: map[int64]overview{}}
	s.filter.CharLimit = 255
	s.filter.Focus()
	s.marked = map[int64]apiclient.Project{}
	if sh.deps.Group != "" {
		if g, err := apiclient.ParseGroupRef(sh.deps.Group); err == nil {
			s.group, s.subgroups = &g, sh.deps.Subgroups
		}
	}
	for _, r := range sh.deps.Recent {
		if r.Path == "" && r.ID == 0 {
			continue
		}
		p := clean(r.Path)
		if p == "" {
			p = fmt.Sprint(r.ID)
		}
		s.recent = append(s.recent, projectItem{id: r.ID, path: p, lower: strings.ToLower(p), recent: true})
	}
	s.rebuild()
	return s
}

// newTextInput is a text field with a steady cursor: a blinking one needs a
// timer running for as long as the field has focus.
func newTextInput(prompt, placeholder string) textinput.Model {
	ti := textinput.New()
	ti.Prompt = prompt
	ti.Placeholder = placeholder
	st := ti.Styles()
	st.Cursor.Blink = false
	ti.SetStyles(st)
	return ti
}

func (s *projectsScreen) Init() tea.Cmd { return s.loadPage() }

func (s *projectsScreen) loadPage() tea.Cmd {
	if s.complete || s.pages.loading() || s.sh.api == nil {
		return nil
	}
	id := s.pages.start()
	if s.group != nil {
		return loadGroupProjectsCmd(s.sh.api, s.sh.deps.RequestTimeout, id, *s.group, s.subgroups)
	}
	return loadProjectsCmd(s.sh.api, s.sh.deps.RequestTimeout, id, "", s.nextPage)
}

func (s *projectsScreen) Title() string {
	if s.group == nil {
		return "projects"
	}
	t := "projects of " + s.group.String()
	if s.subgroups {
		t += " + subgroups"
	}
	return t
}
func (s *projectsScreen) Busy() bool {
	return s.pages.loading() || s.searchRes.loading() || s.searchPending
}
func (s *projectsScreen) Capturing() bool { return true }

func (s *projectsScreen) SetSize(w, h int) {
	s.width, s.height = w, h
	s.filter.SetWidth(max(w-4, 10))
	s.list.setHeight(h - 3)
}

func (s *projectsScreen) Help() helpMap {
	k := s.sh.keys
	short := []key.Binding{k.Open, k.Move, k.TextRefresh}
	if s.query != "" {
		short = append(short, k.ClearFilter)
	}
	if it, ok := s.selected(); ok && it.recent {
		short = append(short, k.Forget)
	}
	switch {
	case len(s.marked) > 0:
		short = append([]key.Binding{k.Bulk}, short...)
	case s.sh.hasBulk:
		short = append([]key.Binding{with(k.Bulk, "last report")}, short...)
	default:
		short = append(short, k.Mark)
	}
	return helpMap{short: short, full: [][]key.Binding{
		{k.Open, k.TextRefresh, k.Forget, k.ClearFilter},
		{k.Mark, k.MarkAll, k.Bulk, k.Scope},
		{k.TextUp, k.TextDown, k.TextPageUp, k.TextPageDown, k.TextTop, k.TextBottom},
	}}
}

func (s *projectsScreen) Update(msg tea.Msg) (screen, tea.Cmd) {
	switch msg := msg.(type) {
	case projectsLoadedMsg:
		return s, s.onLoaded(msg)
	case searchTickMsg:
		if msg.seq != s.searchSeq || s.complete || s.sh.api == nil {
			return s, nil
		}
		s.searchPending = false
		return s, loadProjectsCmd(s.sh.api, s.sh.deps.RequestTimeout, s.searchRes.start(), msg.query, 1)
	case projectLoadedMsg:
		// A project opened: it joins the recent list, first, once.
		if msg.err == nil {
			s.addRecent(projectItem{id: msg.project.ID, path: clean(msg.project.Name()), recent: true})
		}
	case overviewLoadedMsg:
		if msg.gen != s.overviewGen {
			return s, nil
		}
		s.inFlight--
		s.overviews[msg.id] = overview{o: msg.o}
		return s, s.loadOverviews()
	case scopeMsg:
		return s, s.scope(msg)
	case bulkDoneMsg:
		// A bulk change ran through: the marks have served, but for the
		// projects that failed, marked still to try again.
		for id := range s.marked {
			if !msg.failed[id] {
				delete(s.marked, id)
			}
		}
		return s, nil
	case writeDoneMsg:
		// A change makes the project's overview old: read it again.
		if id := msg.w.project().ID; id != 0 {
			if _, ok := s.overviews[id]; ok && !s.overviews[id].loading {
				delete(s.overviews, id)
				return s, s.loadOverviews()
			}
		}
	case tea.PasteMsg:
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
	case s.pages.accept(msg.id):
		if s.group != nil && s.group.Path == "" && msg.groupPath != "" {
			g := *s.group // the scope the user gave stays as it was
			g.Path = msg.groupPath
			s.group = &g
			s.dropMarksOutside()
		}
		if msg.err != nil {
			s.pages.fail(msg.err)
			if len(s.items) == 0 && !s.sh.loginHelps(msg.err) {
				return nil // the pane shows it
			}
			return s.sh.failed(msg.err)
		}
		added := 0
		for _, p := range msg.projects {
			if s.ids[p.ID] {
				continue
			}
			added++
			s.ids[p.ID] = true
			it := itemFrom(p)
			s.items = append(s.items, it)
			for i := range s.recent { // recent entries may know only their path or ID
				r := &s.recent[i]
				if r.path == it.path || (r.id != 0 && r.id == it.id) {
					r.id, r.path, r.name, r.lower = it.id, it.path, it.name, it.lower
				}
			}
		}
		s.pages.set(s.pages.val + 1)
		s.nextPage, s.complete = msg.nextPage, msg.complete
		// A server may offer pages forever: stop at one that goes nowhere or
		// adds nothing new, and after maxProjectPages in any case.
		if !msg.complete && (msg.nextPage <= msg.page || added == 0 || s.pages.val >= maxProjectPages) {
			s.complete = true
		}
		s.rebuild()
		return tea.Batch(s.maybeLoadMore(), s.loadOverviews())
	case s.searchRes.accept(msg.id):
		if msg.err != nil {
			s.searchRes.fail(msg.err)
			return s.sh.failed(msg.err)
		}
		s.searchQuery = msg.search
		found := make([]projectItem, 0, len(msg.projects))
		for _, p := range msg.projects {
			found = append(found, itemFrom(p))
		}
		s.searchRes.set(found)
		s.rebuild()
		return s.loadOverviews()
	}
	return nil
}

// loadOverviews starts the overviews of the rows on screen that have none,
// up to overviewConcurrency at once; each answer starts the next.
func (s *projectsScreen) loadOverviews() tea.Cmd {
	if s.sh.api == nil {
		return nil
	}
	var cmds []tea.Cmd
	start, end := s.list.window()
	for i := start; i < end && s.inFlight < overviewConcurrency; i++ {
		it := s.item(s.rows[i])
		if s.rows[i].kind == rowTyped || it.id == 0 || it.notMaintained {
			continue
		}
		if _, ok := s.overviews[it.id]; ok {
			continue
		}
		s.overviews[it.id] = overview{loading: true}
		s.inFlight++
		cmds = append(cmds, loadOverviewCmd(s.sh.api, s.sh.deps.RequestTimeout, s.overviewGen, it.id))
	}
	return tea.Batch(cmds...)
}

func (s *projectsScreen) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := s.sh.keys
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
	case key.Matches(msg, k.ClearFilter):
		if s.filter.Value() == "" {
			return nil
		}
		s.filter.SetValue("")
		return tea.Batch(s.filterChanged(), s.loadOverviews()) // rows shown again may have none
	case key.Matches(msg, k.TextRefresh):
		return s.reload()
	case key.Matches(msg, k.Forget):
		return s.forget()
	case key.Matches(msg, k.Help):
		return msgCmd(showHelpMsg{}) // no project path or name holds a '?'
	case s.list.move(msg, k.textNav()):
		return tea.Batch(s.maybeLoadMore(), s.loadOverviews())
	}
	var cmd tea.Cmd
	s.filter, cmd = s.filter.Update(msg)
	return tea.Batch(cmd, s.filterChanged(), s.loadOverviews())
}

// maybeLoadMore fetches the next page when the cursor nears the end.
func (s *projectsScreen) maybeLoadMore() tea.Cmd {
	if s.complete || s.pages.loading() || s.pages.err != nil {
		return nil
	}
	if s.query == "" && !s.list.nearEnd() {
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
	s.typed, s.foreign = nil, ""
	if q != "" && (strings.Contains(q, "/") || isDigits(q)) {
		raw := strings.TrimSpace(s.filter.Value())
		if ref, err := apiclient.ParseProjectRef(raw); err == nil {
			s.typed = &ref
			s.foreign = s.otherHost(raw)
		}
	}
	s.list.selectIndex(0)
	s.rebuild()
	return s.search()
}

func (s *projectsScreen) search() tea.Cmd {
	s.searchSeq++
	if s.query == "" || s.complete {
		s.searchPending = false
		return nil
	}
	s.searchPending = true
	return s.sh.clock.After(searchDebounce, searchTickMsg{seq: s.searchSeq, query: strings.TrimSpace(s.filter.Value())})
}

// otherHost is the GitLab a pasted project URL names when it is not the
// one the console is connected to: the same path there is another project.
func (s *projectsScreen) otherHost(raw string) string {
	if !strings.Contains(raw, "://") {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	h, err := hosturl.Normalize(u.Scheme + "://" + u.Host)
	cur, _ := hosturl.Normalize(s.sh.deps.Host)
	if err != nil || u.User != nil {
		return clean(u.Scheme + "://" + u.Host)
	}
	if cur == h || strings.HasPrefix(cur, h+"/") {
		return ""
	}
	return h
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
	recentPaths := make(map[string]bool, len(s.recent))
	for i, it := range s.recent {
		if s.group != nil && !s.inGroup(it.path) {
			continue // scoped to a group: its projects only
		}
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
		for i, it := range s.searchRes.val {
			if !s.ids[it.id] && !recentPaths[it.path] {
				s.rows = append(s.rows, row{rowFound, i})
			}
		}
	}
	// Opening what was typed comes after the real matches: "00299" is
	// scale/project-00299 before it is project 299.
	if s.typed != nil {
		s.rows = append(s.rows, row{kind: rowTyped})
	}
	s.list.setTotal(len(s.rows))
}

// inGroup reports whether a recent project's path is in the list's group
// (directly, or in a subgroup when those are shown).
func (s *projectsScreen) inGroup(path string) bool {
	rest, ok := strings.CutPrefix(strings.ToLower(path), strings.ToLower(s.group.String())+"/")
	return ok && (s.subgroups || !strings.Contains(rest, "/"))
}

func (s *projectsScreen) item(r row) projectItem {
	switch r.kind {
	case rowRecent:
		return s.recent[r.idx]
	case rowLoaded:
		return s.items[r.idx]
	case rowFound:
		return s.searchRes.val[r.idx]
	}
	return projectItem{path: clean(s.typed.String())}
}

func (s *projectsScreen) selected() (projectItem, bool) {
	if len(s.rows) == 0 {
		return projectItem{}, false
	}
	r := s.rows[s.list.cursor]
	if r.kind == rowTyped {
		return projectItem{}, false
	}
	return s.item(r), true
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
	r := s.rows[s.list.cursor]
	var open openProjectMsg
	if r.kind == rowTyped && s.foreign != "" {
		return statusCmd(statusError, "That URL is a project on "+s.foreign+", and errtrack is connected to "+clean(s.sh.deps.Host)+": open it with errtrack --host "+s.foreign+".")
	}
	if r.kind == rowTyped {
		open = openProjectMsg{ref: *s.typed, name: clean(s.typed.String())}
	} else {
		it := s.item(r)
		if it.notMaintained {
			return statusCmd(statusInfo, it.path+": "+it.skip+", and error tracking's settings and keys need the Maintainer role, so it does not open here. Ask a project Owner or Maintainer to raise your role.")
		}
		open = openProjectMsg{ref: it.ref(), name: it.path}
	}
	// Back from the project, the list is whole again, with the cursor on
	// it: a filter kept would be silently appended to.
	s.filter.SetValue("")
	s.filterChanged()
	return msgCmd(open)
}

// addRecent puts it first in the recent list, replacing an entry for the
// same project (by ID or path).
func (s *projectsScreen) addRecent(it projectItem) {
	if it.id == 0 && it.path == "" {
		return
	}
	out := []projectItem{it}
	for _, r := range s.recent {
		if (it.id != 0 && r.id == it.id) || r.path == it.path {
			if it.name == "" {
				out[0].name = r.name
			}
			continue
		}
		out = append(out, r)
	}
	for _, p := range s.items {
		if p.id == it.id && it.id != 0 {
			out[0].name, out[0].lower = p.name, p.lower
		}
	}
	if out[0].lower == "" {
		out[0].lower = strings.ToLower(out[0].path + " " + out[0].name)
	}
	s.recent = out
	s.rebuild()
	// The project just opened: back from it, the cursor is on it.
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
	for i, r := range s.recent {
		if r.path == it.path {
			s.recent = append(s.recent[:i:i], s.recent[i+1:]...)
			break
		}
	}
	s.rebuild()
	cmds := []tea.Cmd{statusCmd(statusInfo, "Removed "+it.path+" from the recent projects.")}
	if f, host := s.sh.deps.ForgetRecent, s.sh.deps.Host; f != nil {
		p := RecentProject{ID: it.id, Path: it.path}
		cmds = append(cmds, sideEffect(func() { f(host, p) }))
	}
	return tea.Batch(cmds...)
}

func (s *projectsScreen) View() string {
	st := s.sh.styles
	var b strings.Builder
	count := fmt.Sprintf("%d loaded", len(s.items))
	if s.complete {
		count = fmt.Sprintf("%d", len(s.items))
	}
	if s.query != "" {
		n := len(s.rows)
		if s.typed != nil {
			n--
		}
		noun := "matches"
		if n == 1 {
			noun = "match"
		}
		count = fmt.Sprintf("%d %s of %s", n, noun, count)
	}
	title := " Projects you maintain"
	if s.group != nil {
		title = " Projects of group " + clean(s.group.String())
		if s.subgroups {
			title += " and its subgroups"
		}
	}
	if len(s.marked) > 0 {
		count += fmt.Sprintf(", %d marked", len(s.marked))
	}
	b.WriteString(st.Title.Render(title) + st.Subtle.Render(" on "+s.sh.deps.Host+" ("+count+")") + "\n")
	b.WriteString(" " + s.filter.View() + "\n")
	switch {
	case len(s.rows) == 0 && s.pages.loading() && len(s.items) == 0:
		b.WriteString(st.Subtle.Render(" Loading projects…"))
	case len(s.rows) == 0 && s.pages.err != nil:
	case len(s.rows) == 0 && s.query != "":
		b.WriteString(st.Subtle.Render(" No project matches. Type a full path (group/project) or an ID to open it directly."))
	case len(s.rows) == 0:
		b.WriteString(st.Subtle.Render(" You maintain no projects here. Type a project ID or path to open one."))
	}
	// The columns keep together on a wide terminal: the name stops at 40
	// cells, so the state sits beside it, not a screen away.
	stateW := min(30, max(s.width/3, 12))
	pathW := min(max((s.width-stateW)/2, 20), 50)
	nameW := min(max(s.width-2-pathW-1-stateW-1, 0), 40)
	start, end := s.list.window()
	for i := start; i < end; i++ {
		r := s.rows[i]
		var line, state string
		switch {
		case r.kind == rowTyped && s.foreign != "":
			line = "  ✗ " + clean(s.typed.String()) + " is on " + s.foreign + ", not on this GitLab"
		case r.kind == rowTyped:
			line = "  → open " + clean(s.typed.String())
		default:
			it := s.item(r)
			name := it.name
			if r.kind == rowRecent {
				name += "  (recent)"
			}
			if s.group != nil && workflow.SharedInto(s.group.Path, it.path) {
				name += "  (shared)"
			}
			mark := "  "
			if _, on := s.marked[it.id]; on && it.id != 0 {
				mark = "● "
			}
			line = mark + pad(it.path, pathW) + " " + pad(name, nameW) + " "
			state = s.overviewText(it.id, stateW)
			switch {
			case it.notMaintained && it.role != "":
				state = "not a Maintainer (" + it.role + ")"
			case it.notMaintained:
				state = "not a Maintainer"
			case it.skip != "":
				state = "archived: skipped"
			}
		}
		switch {
		case i == s.list.cursor:
			if r.kind != rowTyped {
				line = pad(line, 2+pathW+1+nameW+1) + state
			}
			line = st.Selected.Render(pad(line, s.width))
		case r.kind != rowTyped && s.item(r).skip != "":
			// Dimmed whole: nothing to do there; the words say why.
			line = st.Subtle.Render(pad(pad(line, 2+pathW+1+nameW+1)+state, s.width))
		case r.kind != rowTyped:
			// The state in its colour; the words say it too.
			rest := max(s.width-(2+pathW+1+nameW+1), 0)
			line = pad(line, 2+pathW+1+nameW+1) + s.stateStyle(s.item(r).id).Render(pad(state, rest))
		default:
			line = pad(line, s.width)
		}
		b.WriteString(line + "\n")
	}
	if end == len(s.rows) && !s.complete && s.pages.loading() && len(s.rows) > 0 {
		b.WriteString(st.Subtle.Render("  loading more…"))
	}
	if s.pages.err != nil && len(s.items) == 0 && !s.pages.loading() {
		for _, l := range wrap("Could not load projects: "+s.sh.explain(s.pages.err), s.width-2) {
			b.WriteString(" " + st.Error.Render(l) + "\n")
		}
	}
	return b.String()
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

// stateStyle colours a row's state: on, off, not set up, or a problem.
func (s *projectsScreen) stateStyle(id int64) lipgloss.Style {
	st := s.sh.styles
	o, ok := s.overviews[id]
	switch {
	case !ok || o.loading:
		return st.Subtle
	case o.o.Err != nil:
		return st.StateBad
	case o.o.Missing:
		return st.StateNone
	case o.o.Settings != nil && o.o.Settings.Active && (o.o.Settings.Integrated || o.o.Settings.APIURL != nil):
		return st.StateOn
	}
	return st.StateOff
}

// overviewText is the state column of a row.
func (s *projectsScreen) overviewText(id int64, width int) string {
	o, ok := s.overviews[id]
	switch {
	case !ok || id == 0:
		return ""
	case o.loading:
		return "…"
	}
	if sum := o.o.Summary(); lipgloss.Width(sum) <= width {
		return sum
	}
	return o.o.Compact()
}

// mark marks or unmarks the selected project and moves down, as a file
// manager's space does.
func (s *projectsScreen) mark() tea.Cmd {
	it, ok := s.selected()
	switch {
	case !ok || it.id == 0:
		return nil
	case it.skip != "":
		return statusCmd(statusInfo, it.path+": "+it.skip+", so a change to several projects would skip it.")
	}
	if _, on := s.marked[it.id]; on {
		delete(s.marked, it.id)
	} else {
		s.marked[it.id] = apiclient.Project{ID: it.id, PathWithNamespace: it.path, Name: it.name}
	}
	s.list.move(tea.KeyPressMsg{Code: tea.KeyDown}, s.sh.keys.textNav())
	return s.loadOverviews()
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
			_, on := s.marked[it.id]
			all = all && on
		}
	}
	for _, it := range shown {
		if all {
			delete(s.marked, it.id)
		} else {
			s.marked[it.id] = apiclient.Project{ID: it.id, PathWithNamespace: it.path, Name: it.name}
		}
	}
}

// bulk offers the changes to the marked projects; with none marked, it
// shows the last bulk change's report.
func (s *projectsScreen) bulk() tea.Cmd {
	if len(s.marked) == 0 {
		if s.sh.hasBulk {
			return msgCmd(openDialogMsg{d: s.sh.lastBulk})
		}
		return statusCmd(statusInfo, "Mark projects first: "+keyName(s.sh.keys.Mark)+" marks the selected one, "+keyName(s.sh.keys.MarkAll)+" the ones shown.")
	}
	projects := make([]apiclient.Project, 0, len(s.marked))
	for _, p := range s.marked {
		projects = append(projects, p)
	}
	slices.SortFunc(projects, func(a, b apiclient.Project) int { return strings.Compare(a.PathWithNamespace, b.PathWithNamespace) })
	k := s.sh.keys
	plan := func(kind bulkKind) tea.Msg { return planBulkMsg{kind: kind, projects: projects} }
	variable := s.sh.lastVariable
	if variable == "" {
		variable = defaultBulkVariable
	}
	// A rotation and a test event use the DSN a CI/CD variable holds:
	// which one is asked first.
	ask := func(kind bulkKind, title string) tea.Msg {
		d := inputDialog(title, []string{
			"The CI/CD variable whose DSN each project's applications use: enter takes " + variable + ", or type another name.",
		}, "Variable: ", "", "plan", func(name string, _ bool) (tea.Msg, string) {
			if name == "" {
				name = variable
			}
			if !variableName.MatchString(name) {
				return nil, "A variable's name is letters, digits and _ only."
			}
			return planBulkMsg{kind: kind, variable: name, projects: projects}, ""
		})
		d.ask.input.Placeholder = variable // taken when nothing is typed
		return openDialogMsg{d: d}
	}
	var body []string
	for _, p := range projects {
		body = append(body, "  • "+clean(p.PathWithNamespace))
	}
	body = append(body, "", "Each shows its plan first and asks once:")
	picks := []pick{
		{k.BulkEnable, "enable error tracking (integrated where none is set up; a Sentry stays)", plan(bulkEnable)},
		{k.BulkDisable, "disable error tracking", plan(bulkDisable)},
		{k.BulkRotate, "rotate the key a CI/CD variable holds (" + variable + "?), and point it at the new DSN", ask(bulkRotate, "Rotate the key which variable holds?")},
		{k.BulkVerify, "send a test event with the DSN a CI/CD variable holds (" + variable + "?)", ask(bulkVerify, "Send a test event with the DSN which variable holds?")},
	}
	if s.sh.hasBulk {
		picks = append(picks, pick{k.BulkReport, "show the last report again", openDialogMsg{d: s.sh.lastBulk}})
	}
	return msgCmd(openDialogMsg{d: menuDialog(workflow.Projects(len(projects), "marked"), body, picks)})
}

// reload reads the list again from its first page, its overviews too.
func (s *projectsScreen) reload() tea.Cmd {
	s.items, s.ids, s.nextPage, s.pages, s.complete = nil, map[int64]bool{}, 1, loadable[int]{}, false
	s.searchRes, s.searchQuery = loadable[[]projectItem]{}, ""
	s.overviews, s.overviewGen, s.inFlight = map[int64]overview{}, s.overviewGen+1, 0
	s.rebuild()
	return tea.Batch(s.loadPage(), s.search(), s.loadOverviews())
}

// rescope asks for the group whose projects the list shows: a path or ID
// (the current group, or the selected project's, to start from), with its
// subgroups or not; empty, all the projects you maintain. Marks stay: they
// name projects, not rows.
func (s *projectsScreen) rescope() tea.Cmd {
	value, sub := "", true
	if s.group != nil {
		value, sub = s.group.String(), s.subgroups
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

// scope shows the projects of group (nil: all the ones you maintain).
func (s *projectsScreen) scope(msg scopeMsg) tea.Cmd {
	s.group, s.subgroups = msg.group, msg.subgroups && msg.group != nil
	s.dropMarksOutside()
	s.filter.SetValue("")
	s.filterChanged()
	return s.reload()
}

// dropMarksOutside unmarks the projects the list's group does not hold: a
// bulk change acts only on projects the user can see marked.
func (s *projectsScreen) dropMarksOutside() {
	if s.group == nil || s.group.Path == "" {
		return // all projects, or a group whose path is not known yet
	}
	for id, p := range s.marked {
		if !s.inGroup(p.PathWithNamespace) {
			delete(s.marked, id)
		}
	}
}

// parentGroup is the group a path sits in: "a/b/c" → "a/b"; "" at the top.
func parentGroup(path string) string {
	if i := strings.LastIndex(path, "/"); i > 0 {
		return path[:i]
	}
	return ""
}
