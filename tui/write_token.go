package tui

import (
	"context"
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/tokens"
)

// tokenWrite rotates the access token (ctrl+t).
type tokenWrite struct {
	api   API                     // the API with the rotated token
	token *apiclient.RotatedToken // the rotated token's record
	err   error
}

func (w tokenWrite) project() projectscope.Project { return projectscope.Project{} }
func (w tokenWrite) failure() error                { return w.err }
func (w tokenWrite) changed() changes              { return changes{} }
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
func (w tokenWrite) outcome(v voice) outcome {
	if w.err != nil {
		words := tokens.RotateTokenFailure(w.err, v.explain, "check with 'errtrack status' in a shell", "log in again")
		var lost *tokens.LostTokenError
		if errors.As(w.err, &lost) {
			return outcome{loggedOutMsg{why: words}}
		}
		return outcome{statusMsg{text: words, kind: statusError}}
	}
	return outcome{tokenRotatedMsg{api: w.api, text: tokens.RotatedText(v.host, v.tokenStore, w.token, v.now)}}
}

// offerTokenRotation asks whether to rotate the access token, or says why
// it cannot be rotated from here.
func offerTokenRotation(sh *shared) tea.Cmd {
	if sh.deps.RotateToken == nil {
		text := "The token cannot be rotated from here."
		if env := sh.deps.TokenEnv; env != "" {
			text = fmt.Sprintf("The token comes from %s, which would still hold the revoked token after a rotation: rotate it in GitLab (User settings > Access tokens) and set %s to the new one.", env, env)
		}
		return statusCmd(statusInfo, text)
	}
	d := confirmDialog("Rotate your access token?",
		tokens.RotateTokenQuestion(sh.token, tokens.DefaultTokenDays, sh.tokenStore(), sh.clock.Now()),
		"Rotate token", startWriteMsg{tokenWrite{}})
	return msgCmd(openDialogMsg{d: d})
}
