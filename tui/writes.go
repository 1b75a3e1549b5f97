package tui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

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
	writeRotateCreate    // a rotation's first steps: create the new key, check it is listed, find the variables holding the old DSN
	writeRotateVariables // point those CI/CD variables at the new DSN
	writeRotateVerify    // send a test event with the new DSN
	writeRotateDelete    // a rotation's last step: delete the old key
	writeVerifyKey       // send a test event with one key's DSN
	writeRotateToken     // rotate the access token
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
	// varErr: the CI/CD variables could not be read during a rotation.
	varErr error
	check  *apiclient.DSNCheck     // a key's test event
	api    API                     // the API with the rotated token
	token  *apiclient.RotatedToken // the rotated token's record
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
	case writeRotateVariables:
		return fmt.Sprintf("a rotation in %s was updating the CI/CD variables %s", name, w.rot.VariableLabels())
	case writeRotateVerify, writeVerifyKey:
		return "a test event was being sent to a DSN of " + name
	case writeRotateDelete:
		return fmt.Sprintf("a rotation in %s was deleting the old key %d", name, w.rot.Old.ID)
	case writeRotateToken:
		return "the access token was being rotated (check with 'errtrack status')"
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
func runWrite(api API, deps Deps, w write) tea.Cmd {
	return apiCmd(deps.RequestTimeout, func(ctx context.Context) tea.Msg {
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
			// The variables holding the old DSN are looked for meanwhile:
			// the answer to both is needed before the next question.
			type lookup struct {
				r   workflow.Rotation
				err error
			}
			found := make(chan lookup, 1)
			go func() {
				r, err := w.rot.FindVariables(ctx, api)
				found <- lookup{r, err}
			}()
			done.rot, done.err = w.rot.Create(ctx, api)
			if done.err == nil {
				done.rot, done.err = done.rot.Check(ctx, api)
			}
			l := <-found
			done.rot.Variables, done.varErr = l.r.Variables, l.err
		case writeRotateVariables:
			done.rot, done.err = w.rot.UpdateVariables(ctx, api)
		case writeRotateVerify:
			done.rot, done.err = w.rot.Verify(ctx, api)
		case writeVerifyKey:
			done.check, done.err = workflow.VerifyKey(ctx, api, w.project, w.key)
		case writeRotateDelete:
			done.rot, done.err = w.rot.DeleteOld(ctx, api)
		case writeRotateToken:
			done.api, done.token, done.err = deps.RotateToken(ctx, deps.Host)
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
	return m, runWrite(m.sh.api, m.sh.deps, w)
}

// writeDone tells the user how a write ended, whatever screen is open.
func (m Model) writeDone(msg writeDoneMsg) (Model, tea.Cmd) {
	delete(m.sh.pending, msg.w.id)
	w, name := msg.w, msg.w.project.Name()
	if w.kind == writeRotateToken {
		return m.tokenRotated(msg)
	}
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
			text = "GitLab kept integrated error tracking off for " + name + ". " + explain.IntegratedUnavailable
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
		note := ""
		if msg.varErr != nil {
			note = "The CI/CD variables could not be read, so none is updated (" + strings.TrimSuffix(m.sh.explain(msg.varErr), ".") + "): check any that hold the old DSN."
		}
		if len(r.Variables) > 0 {
			return m, m.offerVariables(r)
		}
		return m, m.offerOldKeyDelete(r, note, true)

	case writeRotateVariables:
		r := msg.rot
		var ve *workflow.VariableError
		if errors.As(msg.err, &ve) {
			return status(statusError, fmt.Sprintf("%s failed, so the old key is kept: %s %s", capitalize(ve.Step()), m.sh.explain(ve.Err), r.State()))
		}
		return m, m.offerOldKeyDelete(r, "", true)

	case writeRotateVerify:
		r := msg.rot
		var refused *workflow.RefusedError
		switch {
		case errors.As(msg.err, &refused):
			return m, m.offerOldKeyDelete(r, capitalize(refused.Error())+": the new DSN does not work yet, so keep the old key.", false)
		case msg.err != nil:
			return m, m.offerOldKeyDelete(r, "The test event could not be sent: "+m.sh.explain(msg.err), false)
		}
		return m, m.offerOldKeyDelete(r, fmt.Sprintf("The test event was accepted (HTTP %d): the new DSN works.", r.Verified.StatusCode), false)

	case writeVerifyKey:
		var refused *workflow.RefusedError
		switch {
		case errors.As(msg.err, &refused):
			return status(statusError, fmt.Sprintf("Key %d of %s: %s. %s", w.key.ID, name, refused, workflow.RefusedAdvice))
		case msg.err != nil:
			return status(statusError, "The test event could not be sent: "+m.sh.explain(msg.err))
		}
		return status(statusSuccess, fmt.Sprintf("Key %d of %s works: the test event was accepted (HTTP %d).", w.key.ID, name, msg.check.StatusCode))

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

// offerVariables names the CI/CD variables that hold the old key's DSN and
// asks, once, whether to point them all at the new one.
func (m Model) offerVariables(r workflow.Rotation) tea.Cmd {
	d := confirmDialog(fmt.Sprintf("New key %d created in %s. Update its CI/CD variables?", r.New.ID, r.Project.Name()), []string{
		"These CI/CD variables hold the old key's DSN: " + clean(r.VariableLabels()) + ".",
		"",
		"Update them to the new DSN (masked, protected and raw stay as they are)? The next deploy that reads them uses the new key. The old key is deleted only after this, if you choose to.",
	}, "Update variables", startWriteMsg{write{kind: writeRotateVariables, project: r.Project, rot: r}})
	d.onNo = rotationVariablesSkippedMsg{r}
	return msgCmd(openDialogMsg{d})
}

// offerOldKeyDelete asks whether to delete the old key now, offering a test
// event with the new DSN first; note says what just happened. The new DSN
// is copied (when it is safe to paste) the first time only.
func (m Model) offerOldKeyDelete(r workflow.Rotation, note string, first bool) tea.Cmd {
	var copy tea.Cmd
	body := []string{}
	if note != "" {
		body = append(body, note, "")
	}
	switch err := dsn.Check(r.New.DSN); {
	case err != nil:
		body = append(body, "The new DSN was not copied ("+err.Error()+"); it is shown cleaned:")
	case first:
		body = append(body, "The new DSN (copied, see the status line):")
		copy = m.sh.copyText(r.New.DSN, fmt.Sprintf("the DSN of the new key %d", r.New.ID))
	default:
		body = append(body, "The new DSN:")
	}
	body = append(body, clean(r.New.DSN), "")
	for _, v := range r.Variables {
		if v.Done {
			body = append(body, "CI/CD variable "+clean(v.Label())+" holds the new DSN.")
		} else {
			body = append(body, "CI/CD variable "+clean(v.Label())+" still holds the old DSN: deploys that read it stop reporting once the old key is gone.")
		}
	}
	body = append(body, "Delete the old key "+clean(r.Old.PublicKey)+" once your clients use the new DSN; clients still using it will stop reporting.")
	if r.Verified == nil {
		body = append(body, "v sends a test event with the new DSN first (it is recorded in the project).")
	}
	d := confirmDialog(fmt.Sprintf("New key %d created in %s. Delete old key %d?", r.New.ID, r.Project.Name(), r.Old.ID), body,
		"Delete old key", startWriteMsg{write{kind: writeRotateDelete, project: r.Project, rot: r}})
	d.onNo = rotationKeptMsg{r}
	d = d.withAlt("Send test event", m.sh.keys.Verify, startWriteMsg{write{kind: writeRotateVerify, project: r.Project, rot: r}})
	return tea.Batch(copy, msgCmd(openDialogMsg{d}))
}

// offerTokenRotation asks whether to rotate the access token.
func (m Model) offerTokenRotation() (Model, tea.Cmd) {
	if m.sh.deps.RotateToken == nil {
		text := "The token cannot be rotated from here."
		if env := m.sh.deps.TokenEnv; env != "" {
			text = fmt.Sprintf("The token comes from %s, which would still hold the revoked token after a rotation: rotate it in GitLab (User settings > Access tokens) and set %s to the new one.", env, env)
		}
		return m.setStatus(statusMsg{text: text, kind: statusInfo})
	}
	d := confirmDialog("Rotate your access token?", []string{
		fmt.Sprintf("GitLab issues a new token with the same scopes, valid for %d days, and revokes this one at once.", workflow.DefaultTokenDays),
		"errtrack stores the new token in " + m.sh.tokenStore() + " before anything else; it is never shown.",
	}, "Rotate token", startWriteMsg{write{kind: writeRotateToken}})
	return m, msgCmd(openDialogMsg{d})
}

// tokenRotated switches the console to the new token, or says what state
// the token is in.
func (m Model) tokenRotated(msg writeDoneMsg) (Model, tea.Cmd) {
	if msg.err != nil {
		words := workflow.RotateTokenFailure(msg.err, m.sh.explain, "check with 'errtrack status' in a shell", "log in again")
		var lost *workflow.LostTokenError
		if errors.As(msg.err, &lost) {
			ls := newLoginScreen(m.sh, words)
			m.sh.api = nil
			m.stack = []screen{ls}
			m.dialogs = nil
			m.resize()
			return m, ls.Init()
		}
		return m.setStatus(statusMsg{text: words, kind: statusError})
	}
	m.sh.api = msg.api
	m, status := m.setStatus(statusMsg{text: workflow.RotatedText(m.sh.deps.Host, m.sh.tokenStore(), msg.token, m.sh.clock.Now()), kind: statusSuccess})
	return m, tea.Batch(status, loadTokenCmd(msg.api, m.sh.deps.RequestTimeout))
}
