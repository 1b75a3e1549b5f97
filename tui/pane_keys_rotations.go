package tui

import (
	"fmt"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/rotation"
)

// The project's unfinished rotations, from the ledger (this console's or
// the commands'), are one line each above its keys: what is left to do,
// and the key that does it.

// openRotationsMsg answers the ledger's read of a project's unfinished
// rotations.
type openRotationsMsg struct {
	id   uint64
	recs []ledger.Record
}

// loadOpenRotationsCmd reads the ledger (a file) off the UI goroutine.
func loadOpenRotationsCmd(l *rotation.Rotations, id uint64, projectID int64) tea.Cmd {
	return func() tea.Msg {
		recs := l.OpenChanges(projectID)
		// A finished migration still says where the project reports.
		if rec, ok := l.Migrated(projectID); ok && !rec.IsOpen() {
			recs = append(recs, rec)
		}
		return openRotationsMsg{id: id, recs: recs}
	}
}

// maxRotationNotes keeps the notes from pushing the keys off the screen.
const maxRotationNotes = 3

// rotationNotes word the open rotations, the keys named as listed.
func (p *keysPane) rotationNotes() []string {
	if p.misplaced() {
		return nil
	}
	recs := p.open.val
	var out []string
	for i, r := range recs {
		if i == maxRotationNotes {
			out = append(out, fmt.Sprintf("… and %d more open rotations of this project ('errtrack rotations --open -p %d' lists them).", len(recs)-i, r.ProjectID))
			break
		}
		out = append(out, p.rotationNote(r))
	}
	return out
}

func (p *keysPane) rotationNote(r ledger.Record) string {
	k := p.sh.keys
	old, nk := p.named(rotation.OldKeyOf(r)), p.named(rotation.NewKeyOf(r))
	on := r.Updated.Local().Format(time.DateOnly)
	if r.Kind == ledger.KindMigration {
		return p.migratedNote(r)
	}
	switch r.Phase {
	case ledger.PhaseDisabled:
		if p.activeNow(rotation.OldKeyOf(r)) {
			// a turned the old key on again since: the ledger's phase is
			// what the rotation did, not what the key is.
			return clean(fmt.Sprintf("Soft rotation open: key %s, disabled on %s, is on again; new key %s; delete the old key (%s) once its clients have moved.", old, on, nk, keyName(k.Delete)))
		}
		return clean(fmt.Sprintf("Soft rotation open: key %s disabled on %s, new key %s; delete the old key (%s) once its clients have moved.", old, on, nk, keyName(k.Delete)))
	case ledger.PhaseCreating:
		return clean(fmt.Sprintf("Rotation of key %s open since %s: its create's answer was lost; %s on key %s finds out what it made and goes on.", old, r.Started.Local().Format(time.DateOnly), keyName(k.Rotate), old))
	}
	return clean(fmt.Sprintf("Rotation open since %s: new key %s, old key %s still there; delete it (%s) once its clients have moved, or %s on it goes on.",
		r.Started.Local().Format(time.DateOnly), nk, old, keyName(k.Delete), keyName(k.Rotate)))
}

// activeNow: the key the ledger holds is listed, and on.
func (p *keysPane) activeNow(k apiclient.ClientKey) bool {
	for _, x := range p.data.val {
		if keystore.SameKey(x, k) {
			return x.Active
		}
	}
	return false
}

// named names a key the ledger holds as the list shows it (with its
// name, for a Sentry's).
func (p *keysPane) named(k apiclient.ClientKey) string {
	for _, x := range p.data.val {
		if keystore.SameKey(x, k) {
			return keystore.KeyName(x)
		}
	}
	return keystore.KeyName(k)
}

// migrated reports an open migration of the project: its integrated
// tracking was switched off on purpose.
func (p *keysPane) migrated() bool {
	return slices.ContainsFunc(p.open.val, func(r ledger.Record) bool { return r.Kind == ledger.KindMigration })
}

// rotationOf is the open rotation whose old key k is, if any: R on it goes
// on with that rotation (its resume question), so nothing new is asked.
func (p *keysPane) rotationOf(k apiclient.ClientKey) *ledger.Record {
	for i, r := range p.open.val {
		if r.Kind == ledger.KindRotation && keystore.SameKey(rotation.OldKeyOf(r), k) {
			return &p.open.val[i]
		}
	}
	return nil
}
