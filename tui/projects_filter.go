package tui

import (
	"net/url"
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/hosturl"
)

// searchDebounce is how long the filter rests before the server is asked.
const searchDebounce = 300 * time.Millisecond

// projectFilter is the text typed on the projects list: the rows it
// matches, the project it names (an ID, a path or a URL, opened directly),
// and, while the list is incomplete, the server's search for it.
type projectFilter struct {
	input textinput.Model
	query string // lower-cased filter text
	typed *apiclient.ProjectRef
	// foreign: the typed URL names another GitLab than the one connected.
	foreign string

	// found is the server-side search's answer for foundFor, once the
	// debounce (seq, waiting) let it go.
	seq      int
	found    loadable[[]projectItem]
	foundFor string
	waiting  bool
}

// The filter's placeholder follows its prompt, "/ ": what / does, then what to type.
const (
	filterIdle   = "to filter, or to open a project by ID or path"
	filterTyping = "type to filter, or a project ID or group/project path"
)

func newProjectFilter() projectFilter {
	f := projectFilter{input: newTextInput("/ ", filterIdle)}
	f.input.CharLimit = 255
	return f
}

// focus starts typing in the filter.
func (f *projectFilter) focus() tea.Cmd {
	f.input.Placeholder = filterTyping
	return f.input.Focus()
}

// blur ends typing in the filter: the keys are the list's again.
func (f *projectFilter) blur() {
	f.input.Placeholder = filterIdle
	f.input.Blur()
}

// text is what was typed, trimmed.
func (f *projectFilter) text() string { return strings.TrimSpace(f.input.Value()) }

// changed reads the text again: what it matches and what it names on host.
// It reports whether the query changed.
func (f *projectFilter) changed(host string) bool {
	q := strings.ToLower(f.text())
	if q == f.query {
		return false
	}
	f.query = q
	f.typed, f.foreign = nil, ""
	if q != "" && (strings.Contains(q, "/") || isDigits(q)) {
		if ref, err := apiclient.ParseProjectRef(f.text()); err == nil {
			f.typed = &ref
			f.foreign = otherHost(f.text(), host)
		}
	}
	return true
}

// schedule starts the debounce of a server search for the query, needed
// only while the list is incomplete.
func (f *projectFilter) schedule(clock Clock, complete bool) tea.Cmd {
	f.seq++
	if f.query == "" || complete {
		f.waiting = false
		return nil
	}
	f.waiting = true
	return clock.After(searchDebounce, searchTickMsg{seq: f.seq, query: f.text()})
}

// foundNow reports that the search's answer is for the text typed now.
func (f *projectFilter) foundNow() bool { return strings.EqualFold(f.foundFor, f.text()) }

// forgetSearch drops the search's answer (the list is read again).
func (f *projectFilter) forgetSearch() {
	f.found, f.foundFor = loadable[[]projectItem]{}, ""
}

// otherHost is the GitLab a pasted project URL names when it is not host,
// the one the console is connected to: the same path there is another
// project.
func otherHost(raw, host string) string {
	if !strings.Contains(raw, "://") {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	h, err := hosturl.Normalize(u.Scheme + "://" + u.Host)
	cur, _ := hosturl.Normalize(host)
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
