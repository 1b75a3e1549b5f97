package tui

import (
	"fmt"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/internal/rotation"
)

// What the program says when the console ends under a change: the writes
// still waiting for their answer, the rotations stopped at a question, the
// change to marked projects under way.

// PendingWrite is a write still waiting for the server's answer when the
// console ended.
type PendingWrite struct {
	// What it was doing: "a client key was being created in demo/web-shop".
	What string
	// Reading: it was still reading what it needs, so nothing was changed.
	Reading bool
}

// reader is a write whose first part only reads (a rotation's plan, a
// delete's look-up): quitting then changes nothing.
type reader interface{ reading() bool }

func isReading(w write) bool {
	r, ok := w.(reader)
	return ok && r.reading()
}

// PendingWrites says what the writes still waiting for the server's answer
// were doing, for the program to report when the console ends under them.
func (m Model) PendingWrites() []PendingWrite {
	ids := make([]uint64, 0, len(m.sh.pending))
	for id := range m.sh.pending {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	out := make([]PendingWrite, len(ids))
	for i, id := range ids {
		w := m.sh.pending[id]
		out[i] = PendingWrite{What: w.pending(), Reading: isReading(w)}
	}
	return out
}

// Unfinished reports that the console ended with a change under way or
// stopped at a question: the program exits 130 then, as an interrupted
// command does.
func (m Model) Unfinished() bool {
	return len(m.changesUnderWay()) > 0 || len(m.RotationsAtQuestion()) > 0
}

// changesUnderWay words the changes quitting would leave unfinished: the
// writes that change something, and a change to marked projects.
func (m Model) changesUnderWay() []string {
	var out []string
	for _, p := range m.PendingWrites() {
		if !p.Reading {
			out = append(out, p.What)
		}
	}
	if r := m.sh.bulk; r != nil {
		d := r.words().Doing
		out = append(out, fmt.Sprintf("a change to the marked projects was under way (%s%s: %d of %d done)", strings.ToLower(d[:1]), d[1:], r.done, r.acting))
	}
	return out
}

// quitQuestion asks before quitting with a change under way; nil when
// there is none, and the console quits at once.
func (m Model) quitQuestion() *dialog {
	under := m.changesUnderWay()
	if len(under) == 0 {
		return nil
	}
	d := confirmDialog("Quit with a change under way?", quitBody(under, m.sh.bulk != nil), "Quit", tea.QuitMsg{})
	return &d
}

// quitBody names what is under way, and what to check: one change is
// "it", in "the project" (or the marked projects, for a change to them).
func quitBody(under []string, bulk bool) []string {
	check := "Each may happen or not: errtrack cannot tell once it quits. Check the projects before trying again."
	switch {
	case len(under) == 1 && bulk:
		check = "It may happen or not: errtrack cannot tell once it quits. Check the marked projects before trying again."
	case len(under) == 1:
		check = "It may happen or not: errtrack cannot tell once it quits. Check the project before trying again."
	}
	return []string{"errtrack would quit while " + strings.Join(under, ", and while ") + ".", "", check}
}

// followQuitQuestion keeps an open quit question true as changes end: it
// names what is still under way, and closes once nothing is, saying so.
func (m Model) followQuitQuestion() (Model, tea.Cmd) {
	for i, d := range m.dialogs {
		if _, quit := d.onYes.(tea.QuitMsg); !quit {
			continue
		}
		under := m.changesUnderWay()
		if len(under) > 0 {
			m.dialogs[i].body = quitBody(under, m.sh.bulk != nil)
			return m, nil
		}
		m.dialogs = append(m.dialogs[:i:i], m.dialogs[i+1:]...)
		return m.setStatus(statusMsg{text: "The change ended while you were asked: nothing is under way any more (" + keyName(m.sh.keys.Quit) + " quits at once).", kind: statusInfo})
	}
	return m, nil
}

// RotationsAtQuestion are the rotations whose question was open when the
// console ended: their new key exists and the old one stays, for the
// program to say so.
func (m Model) RotationsAtQuestion() []rotation.Rotation {
	var out []rotation.Rotation
	for _, d := range m.dialogs {
		if msg, ok := d.onYes.(startWriteMsg); ok {
			if w, ok := msg.w.(rotationWrite); ok && w.r.New != nil {
				out = append(out, w.r.Stop())
			}
		}
	}
	return out
}
