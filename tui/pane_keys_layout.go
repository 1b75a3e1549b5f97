package tui

import (
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/errtrack/errtrack/internal/keystore"
)

// The keys pane's layout: the notes above the list take their lines, so
// whatever changes them (a new size, a list read, the settings followed,
// the ledger's open rotations, the filter ended) lays the list out again.

func (p *keysPane) setSize(w, h int) {
	p.width, p.height = w, h
	p.filter.SetWidth(max(w-4, 10))
	p.layout()
}

// layout sizes the list to the lines the table has: the notes above it,
// the filter and the header take theirs.
func (p *keysPane) layout() {
	h := p.height - 1 - len(p.notes()) // the header
	if p.filtering || p.query != "" {
		h--
	}
	p.list.setHeight(h)
}

func (p *keysPane) loaded(msg keysLoadedMsg) tea.Cmd {
	created := p.createdDuringLoad
	p.createdDuringLoad = nil // they are on screen; a later list has them
	if msg.err != nil {
		had := p.data.has
		p.data.fail(msg.err)
		return p.sh.failedOnce(msg.err, !had)
	}
	if msg.store != nil && msg.store.Backend() == keystore.BackendSentry {
		p.store = msg.store
	} else {
		p.store = nil
	}
	p.setKeys(mergeCreated(msg.keys, created))
	p.layout()
	return nil
}

// clearFilter shows every key again, keeping the selected one selected.
func (p *keysPane) clearFilter() {
	cur, had := p.selected()
	p.query = ""
	p.filter.SetValue("")
	p.refilter()
	if had {
		p.selectKey(cur)
	}
	p.layout()
}

// followSettings follows the settings: keys collect nothing while error
// tracking is off or not set up, and a project reporting to a Sentry has
// that Sentry project's keys.
func (p *keysPane) followSettings(s loadable[settings]) {
	p.tracking, p.reports = "", ""
	if s.has && keystore.SentryBacked(s.val.s) {
		p.reports = *s.val.s.APIURL
	}
	switch {
	case !s.has:
	case s.val.missing:
		p.tracking = "Error tracking is not configured for this project yet (tab to set it up)."
	case !s.val.s.Active:
		p.tracking = "Error tracking is disabled for this project: the ingestion endpoint may still accept events sent with these keys, but the project shows no errors until it is enabled (tab, then a)."
	}
	p.layout()
}

// notes are the lines above the list, each ending in a line break: that
// error tracking is off, a read-only token, where a Sentry's keys are (or
// why they are not shown), the project's unfinished rotations. layout and
// top count them: they are made from the pane's state alone.
func (p *keysPane) notes() []string {
	st := p.sh.styles
	w := max(p.width-2, 10)
	var out []string
	add := func(style lipgloss.Style, text string) {
		for _, l := range wrap(text, w) {
			out = append(out, " "+style.Render(l)+"\n")
		}
	}
	// A project migrated to a Sentry has its tracking off on purpose: its
	// note says so, not how to turn it on again.
	if p.tracking != "" && !p.migrated() {
		add(st.Warning, p.tracking)
	}
	if p.sh.readOnly() {
		out = append(out, " "+st.Warning.Render(truncate("Read-only token (read_api): keys cannot be created or deleted.", w))+"\n")
	}
	switch {
	case p.misplaced():
		add(st.Warning, p.misplacedNote())
	case p.sentry():
		out = append(out, " "+st.Subtle.Render(truncate("Keys of the "+clean(p.store.Where())+", where the project reports.", w))+"\n")
	}
	for _, l := range p.rotationNotes() {
		add(st.Warning, l)
	}
	return out
}

// top is the lines drawn above the rows: notes, the filter, the header.
func (p *keysPane) top() int {
	n := 1 + len(p.notes())
	if p.filtering || p.query != "" {
		n++
	}
	return n
}

// rotationsLoaded takes the ledger's answer.
func (p *keysPane) rotationsLoaded(msg openRotationsMsg) {
	if p.open.accept(msg.id) {
		p.open.set(msg.recs)
		p.layout()
	}
}
