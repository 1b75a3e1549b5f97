package tui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/dsn"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/workflow"
)

// Writes go through the root, not the screen that asked for them: the user
// may leave the screen before the answer, and a created key, its DSN and the
// offer to delete an old key must reach them wherever they are.

type writeKind uint8

const (
	writeCreateKey writeKind = iota
	writeDeleteKey
	writeCreateSettings
	writeUpdateSettings
	writeRotateCreate // a rotation's first steps: create the new key, check it is listed
	writeRotateDelete // a rotation's last step: delete the old key
)

// write is one change to make, with everything it needs: the project and
// key the user confirmed, not whatever a screen shows by the time it runs.
type write struct {
	id      uint64
	kind    writeKind
	project workflow.Project
	key     apiclient.ClientKey // the key to delete
	rot     workflow.Rotation
	// Settings changes.
	active     bool
	integrated *bool
	what       string  // "enabled", "disabled", ...
	keysBefore []int64 // the keys the screen knew, to name one the server creates
}

// startWriteMsg asks the root to make a write.
type startWriteMsg struct{ w write }

// writeDoneMsg answers a write; screens showing its project update from it.
type writeDoneMsg struct {
	w        write
	key      *apiclient.ClientKey // created
	settings *apiclient.Settings
	keys     []apiclient.ClientKey // after a settings change that may create a key
	rot      workflow.Rotation
	gone     bool // a retried delete found the key gone
	err      error
}

// pending describes the write in flight, for PendingWrites.
func (w write) pending() string {
	name := w.project.Name()
	switch w.kind {
	case writeCreateKey:
		return "a client key was being created in " + name
	case writeDeleteKey:
		return fmt.Sprintf("client key %d of %s was being deleted", w.key.ID, name)
	case writeCreateSettings:
		return "the error tracking settings of " + name + " were being created"
	case writeUpdateSettings:
		return "the error tracking settings of " + name + " were being changed"
	case writeRotateCreate:
		return fmt.Sprintf("a rotation of key %d in %s was creating the new key", w.rot.Old.ID, name)
	case writeRotateDelete:
		return fmt.Sprintf("a rotation in %s was deleting the old key %d", name, w.rot.Old.ID)
	}
	return "a change was being made in " + name
}

// busyWith reports a write of the same kind already running for the project.
func (w write) sameAs(o write) bool {
	create := func(k writeKind) bool { return k == writeCreateKey || k == writeRotateCreate }
	settings := func(k writeKind) bool { return k == writeCreateSettings || k == writeUpdateSettings }
	return sameProject(w.project, o.project) &&
		(w.kind == o.kind || (create(w.kind) && create(o.kind)) || (settings(w.kind) && settings(o.kind)))
}

func sameProject(a, b workflow.Project) bool {
	return (a.ID != 0 && a.ID == b.ID) || a.Ref == b.Ref
}

// runWrite makes the write off the UI goroutine.
func runWrite(api API, timeout time.Duration, w write) tea.Cmd {
	return apiCmd(timeout, func(ctx context.Context) tea.Msg {
		done := writeDoneMsg{w: w}
		ref := w.project.Ref
		switch w.kind {
		case writeCreateKey:
			done.key, _, done.err = api.CreateClientKey(ctx, ref)
		case writeDeleteKey:
			var resp *apiclient.Response
			_, resp, done.err = api.DeleteClientKey(ctx, ref, w.key.ID)
			done.gone = done.err == nil && resp != nil && resp.AlreadyGone
		case writeCreateSettings, writeUpdateSettings:
			if w.kind == writeCreateSettings {
				done.settings, _, done.err = api.CreateSettings(ctx, ref, w.active, *w.integrated)
			} else {
				done.settings, _, done.err = api.UpdateSettings(ctx, ref, w.active, w.integrated)
			}
			// Turning integrated tracking on creates the first key: read the
			// keys back so the console can name it.
			if done.err == nil && done.settings.Active && done.settings.Integrated {
				done.keys, _, _ = api.ListClientKeys(ctx, ref)
			}
		case writeRotateCreate:
			done.rot, done.err = w.rot.Create(ctx, api)
			if done.err == nil {
				done.rot, done.err = done.rot.Check(ctx, api)
			}
		case writeRotateDelete:
			done.rot, done.err = w.rot.DeleteOld(ctx, api)
		}
		return done
	})
}

// startWrite registers w and runs it, unless the same change is already
// under way for the project.
func (m Model) startWrite(w write) (Model, tea.Cmd) {
	if m.sh.api == nil {
		return m, nil
	}
	for _, p := range m.sh.pending {
		if p.sameAs(w) {
			return m.setStatus(statusMsg{text: "That change is already under way for " + w.project.Name() + ".", kind: statusInfo})
		}
	}
	w.id = nextRequestID()
	m.sh.pending[w.id] = w
	return m, runWrite(m.sh.api, m.sh.deps.RequestTimeout, w)
}

// writeDone tells the user how a write ended, whatever screen is open.
func (m Model) writeDone(msg writeDoneMsg) (Model, tea.Cmd) {
	delete(m.sh.pending, msg.w.id)
	w, name := msg.w, msg.w.project.Name()
	if errors.Is(msg.err, apiclient.ErrUnauthorized) {
		return m.handleAuthError(msg.err)
	}
	status := func(kind statusKind, text string) (Model, tea.Cmd) {
		return m.setStatus(statusMsg{text: text, kind: kind})
	}
	switch w.kind {
	case writeCreateKey:
		if msg.err != nil {
			if words, ok := workflow.CreateOutcomeUnknown(msg.err, "press r to refresh the list"); ok {
				return status(statusError, m.sh.explain(msg.err)+" "+words)
			}
			return status(statusError, m.sh.explain(msg.err))
		}
		return status(statusSuccess, fmt.Sprintf("Created client key %d in %s.", msg.key.ID, name))

	case writeDeleteKey:
		switch {
		case errors.Is(msg.err, apiclient.ErrKeyNotFound):
			return status(statusInfo, fmt.Sprintf("Client key %d of %s is already gone: it was deleted elsewhere.", w.key.ID, name))
		case msg.err != nil && apiclient.OutcomeUnknown(msg.err):
			return status(statusError, m.sh.explain(msg.err)+" The key may have been deleted anyway: press r to refresh the list.")
		case msg.err != nil:
			return status(statusError, m.sh.explain(msg.err))
		case msg.gone:
			return status(statusSuccess, fmt.Sprintf("Deleted client key %d of %s: the server no longer has it (the first attempt went through before its answer was lost).", w.key.ID, name))
		}
		return status(statusSuccess, fmt.Sprintf("Deleted client key %s of %s.", workflow.KeyLabel(w.key), name))

	case writeCreateSettings, writeUpdateSettings:
		if msg.err != nil {
			return status(statusError, m.sh.explain(msg.err))
		}
		text := fmt.Sprintf("Error tracking settings %s for %s.", w.what, name)
		for _, k := range msg.keys {
			if !slices.Contains(w.keysBefore, k.ID) {
				text += fmt.Sprintf(" GitLab created the first client key, %d: its DSN is on the Client keys tab.", k.ID)
				break
			}
		}
		if w.integrated != nil && *w.integrated && !msg.settings.Integrated {
			text += " The server kept integrated error tracking off. " + explain.IntegratedUnavailable
		}
		return status(statusSuccess, text)

	case writeRotateCreate:
		r := msg.rot
		if r.New == nil {
			if words, ok := workflow.CreateOutcomeUnknown(msg.err, "press r to refresh the list"); ok {
				return status(statusError, m.sh.explain(msg.err)+" "+words+" "+r.State())
			}
			return status(statusError, "The new key was not created: "+m.sh.explain(msg.err)+" "+r.State())
		}
		if msg.err != nil {
			var nl *workflow.NotListedError
			why := "The new key could not be checked in the key list: " + m.sh.explain(msg.err)
			if errors.As(msg.err, &nl) {
				why = fmt.Sprintf("The server does not list the new key %d, so the old key is not deleted.", r.New.ID)
			}
			return status(statusError, why+" "+r.State())
		}
		return m, m.offerOldKeyDelete(r)

	case writeRotateDelete:
		r := msg.rot
		switch {
		case msg.err != nil && apiclient.OutcomeUnknown(msg.err):
			return status(statusError, m.sh.explain(msg.err)+fmt.Sprintf(" Old key %d may have been deleted anyway: press r to refresh the list.", r.Old.ID))
		case msg.err != nil:
			return status(statusError, "Deleting the old key failed: "+m.sh.explain(msg.err)+" "+r.State())
		}
		return status(statusSuccess, r.State())
	}
	return m, nil
}

// offerOldKeyDelete copies the new DSN (when it is safe to paste) and asks
// whether to delete the old key now.
func (m Model) offerOldKeyDelete(r workflow.Rotation) tea.Cmd {
	copied := "The new DSN (copied, see the status line):"
	var copy tea.Cmd
	if err := dsn.Check(r.New.DSN); err != nil {
		copied = "The new DSN was not copied (" + err.Error() + "); it is shown cleaned:"
	} else {
		copy = m.sh.copyText(r.New.DSN, fmt.Sprintf("the DSN of the new key %d", r.New.ID))
	}
	d := confirmDialog(fmt.Sprintf("New key %d created in %s. Delete old key %d?", r.New.ID, r.Project.Name(), r.Old.ID), []string{
		copied,
		clean(r.New.DSN),
		"",
		"Delete the old key " + clean(r.Old.PublicKey) + " once your clients use the new DSN; clients still using it will stop reporting.",
	}, "Delete old key", startWriteMsg{write{kind: writeRotateDelete, project: r.Project, rot: r}})
	d.onNo = rotationKeptMsg{r}
	return tea.Batch(copy, msgCmd(openDialogMsg{d}))
}
