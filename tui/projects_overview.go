package tui

import (
	"charm.land/lipgloss/v2"

	"github.com/errtrack/errtrack/internal/audit"
)

// overviewConcurrency is how many project overviews load at once.
const overviewConcurrency = 3

// overviews say how each project's error tracking is set up, loaded for
// the rows on screen, a few at a time, and kept until a refresh.
type overviews struct {
	byID map[int64]overview
	// gen is the refresh the answers in flight belong to.
	gen      int
	inFlight int
}

type overview struct {
	loading bool
	o       audit.Overview
}

func newOverviews(gen int) overviews { return overviews{byID: map[int64]overview{}, gen: gen} }

// took keeps an answer of this refresh's; false drops an older one's.
func (o *overviews) took(msg overviewLoadedMsg) bool {
	if msg.gen != o.gen {
		return false
	}
	o.inFlight--
	o.byID[msg.id] = overview{o: msg.o}
	return true
}

// stale forgets project id's overview, changed by a write, unless it is
// being read: true when it is to be read again.
func (o *overviews) stale(id int64) bool {
	if v, ok := o.byID[id]; ok && !v.loading {
		delete(o.byID, id)
		return true
	}
	return false
}

// stateTone is the colour of a row's state: on, off, not set up, or a
// problem; unknown while it loads.
type stateTone uint8

const (
	toneUnknown stateTone = iota
	toneBad
	toneNone
	toneOn
	toneOff
)

// tone says how project id's state is coloured.
func (o overviews) tone(id int64) stateTone {
	v, ok := o.byID[id]
	switch {
	case !ok || v.loading:
		return toneUnknown
	case v.o.Err != nil:
		return toneBad
	case v.o.Missing:
		return toneNone
	case v.o.Settings != nil && v.o.Settings.Active && (v.o.Settings.Integrated || v.o.Settings.APIURL != nil):
		return toneOn
	}
	return toneOff
}

// style is the tone's style in st.
func (t stateTone) style(st Styles) lipgloss.Style {
	return [...]lipgloss.Style{toneUnknown: st.Subtle, toneBad: st.StateBad, toneNone: st.StateNone, toneOn: st.StateOn, toneOff: st.StateOff}[t]
}

// text is the state column of a row, in width cells.
func (o overviews) text(id int64, width int) string {
	v, ok := o.byID[id]
	switch {
	case !ok || id == 0:
		return ""
	case v.loading:
		return "…"
	}
	if sum := v.o.Summary(); lipgloss.Width(sum) <= width {
		return sum
	}
	return v.o.Compact()
}
