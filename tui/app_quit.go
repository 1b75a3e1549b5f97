package tui

import (
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/internal/workflow"
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
		d := r.plan.kind.doing(r.plan.variable)
		out = append(out, strings.ToLower(d[:1])+d[1:]+" in the marked projects was under way")
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
	body := []string{"errtrack would quit while " + strings.Join(under, ", and while ") + ".",
		"", "Each may happen or not: errtrack cannot tell once it quits. Check the projects before trying again."}
	d := confirmDialog("Quit with a change under way?", body, "Quit", tea.QuitMsg{})
	return &d
}

// RotationsAtQuestion are the rotations whose question was open when the
// console ended: their new key exists and the old one stays, for the
// program to say so.
func (m Model) RotationsAtQuestion() []workflow.Rotation {
	var out []workflow.Rotation
	for _, d := range m.dialogs {
		if msg, ok := d.onYes.(startWriteMsg); ok {
			if w, ok := msg.w.(rotationWrite); ok && w.r.New != nil {
				out = append(out, w.r.Stop())
			}
		}
	}
	return out
}

// BulkQuitNote says, when the console ends during a bulk change, which
// marked projects it had changed, failed in and not reached (nothing was
// changed there), and how to go on; "" when no bulk change is under way.
func (m Model) BulkQuitNote() string {
	r := m.sh.bulk
	if r == nil {
		return ""
	}
	var names, changed, failed []string
	for i := range r.plan.size() {
		switch {
		case i >= r.next && r.plan.acts(i):
			names = append(names, r.plan.project(i).Name())
		case r.plan.result(i) == workflow.ResultChanged:
			changed = append(changed, r.plan.project(i).Name())
		case r.plan.result(i) == workflow.ResultFailed && r.plan.acts(i):
			failed = append(failed, r.plan.project(i).Name())
		}
	}
	doing := r.plan.kind.doing(r.plan.variable)
	parts := []string{doing + " was under way when you quit."}
	list := func(names []string) string {
		return workflow.Projects(len(names), "") + " (" + strings.Join(names, ", ") + ")"
	}
	if len(changed) > 0 {
		parts = append(parts, "It had changed "+list(changed)+".")
	}
	if len(failed) > 0 {
		parts = append(parts, "It had failed in "+list(failed)+".")
	}
	if len(names) > 0 {
		parts = append(parts, "It had not reached "+list(names)+": nothing was changed there.")
	}
	switch {
	case r.plan.kind == bulkRotate:
		parts = append(parts, "Rotate the keys "+r.plan.variable+" holds again in all of them (here or with errtrack keys rotate --group): the run goes on with the ones under way and leaves the rotated ones alone.")
	case len(names) > 0:
		parts = append(parts, "Mark the ones not reached and run it again.")
	}
	return strings.Join(parts, " ")
}
