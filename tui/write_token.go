package tui

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/workflow"
)

// tokenWrite rotates the access token (ctrl+t).
type tokenWrite struct {
	api   API                     // the API with the rotated token
	token *apiclient.RotatedToken // the rotated token's record
	err   error
}

func (w tokenWrite) project() workflow.Project { return workflow.Project{} }
func (w tokenWrite) failure() error            { return w.err }
func (w tokenWrite) changed() changes          { return changes{} }
func (w tokenWrite) pending() string {
	return "the access token was being rotated (check with 'errtrack status')"
}

func (w tokenWrite) conflicts(o write) bool {
	_, ok := o.(tokenWrite)
	return ok
}

func (w tokenWrite) run(ctx context.Context, _ API, deps Deps) write {
	w.api, w.token, w.err = deps.RotateToken(ctx, deps.Host)
	return w
}

// outcome switches the console to the new token, or says what state the
// token is in.
func (w tokenWrite) outcome(m Model) (Model, tea.Cmd) {
	if w.err != nil {
		words := workflow.RotateTokenFailure(w.err, m.sh.explain, "check with 'errtrack status' in a shell", "log in again")
		var lost *workflow.LostTokenError
		if errors.As(w.err, &lost) {
			ls := newLoginScreen(m.sh, words)
			m.sh.api = nil
			m.stack = []screen{ls}
			m.dialogs = nil
			m.resize()
			return m, ls.Init()
		}
		return m.setStatus(statusMsg{text: words, kind: statusError})
	}
	m.sh.api = w.api
	m, status := m.setStatus(statusMsg{text: workflow.RotatedText(m.sh.deps.Host, m.sh.tokenStore(), w.token, m.sh.clock.Now()), kind: statusSuccess})
	return m, tea.Batch(status, loadTokenCmd(w.api, m.sh.deps.RequestTimeout))
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
	d := confirmDialog("Rotate your access token?",
		workflow.RotateTokenQuestion(m.sh.token, workflow.DefaultTokenDays, m.sh.tokenStore(), m.sh.clock.Now()),
		"Rotate token", startWriteMsg{tokenWrite{}})
	return m, msgCmd(openDialogMsg{d: d})
}
