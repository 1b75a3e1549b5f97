package tui

import (
	"strings"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/safetext"
)

// The rows of the projects list: each project as it is picked, where a row
// comes from, and how a row is drawn (which rows show is the screen's:
// rebuild).

// maxField cuts a project's path or name: a server could send megabytes.
const maxField = 300

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
	if skip := projectscope.SkipReason(p); skip != "" {
		it.skip, it.notMaintained = skip, !p.Archived
		if lvl := p.AccessLevel(); lvl > 0 {
			it.role = projectscope.RoleName(lvl)
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

// maxDrawnRows bounds the rows kept drawn: many screens' worth.
const maxDrawnRows = 1024

// rowKey is everything a project's row shows and how: a row is drawn again
// only when one of them changes. Drawing measures every cell grapheme by
// grapheme, and drawing each row on every frame cost most of the console's
// time while a plan's answers arrived.
type rowKey struct {
	path, name, state           string
	marked, selected, skipped   bool
	tone                        stateTone
	pathW, nameW, stateW, width int
	palette                     palette
}

// draw draws the row.
func (k rowKey) draw(st Styles) string {
	mark := "  "
	if k.marked {
		mark = "● "
	}
	line := mark + pad(k.path, k.pathW) + " " + pad(k.name, k.nameW) + " "
	cols := 2 + k.pathW + 1 + k.nameW + 1
	switch {
	case k.selected:
		return st.Selected.Render(pad(pad(line, cols)+k.state, k.width))
	case k.skipped:
		// Dimmed whole: nothing to do there; the words say why.
		return st.Subtle.Render(pad(pad(line, cols)+k.state, k.width))
	}
	// The state in its colour; the words say it too.
	rest := max(k.width-cols, 0)
	return pad(line, cols) + k.tone.style(st).Render(pad(k.state, rest))
}
