package tui

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/tokens"
)

// shared is what every screen reads from the root. Only the root changes it.
type shared struct {
	deps    Deps
	api     API
	styles  Styles
	keys    KeyMap
	clock   Clock
	token   tokens.TokenStatus
	pending map[uint64]write // writes in flight, by id
	// lastBulk is the report of the last bulk change, reopened with Bulk.
	lastBulk dialog
	hasBulk  bool
	// planning is the bulk plan asked for last (0: none): an earlier
	// one's answer is dropped. bulk is the bulk change under way.
	planning uint64
	bulk     *bulkRun
	// lastVariable is the variable the last bulk rotation or test event
	// used, offered again.
	lastVariable string
	// lastMigrate is the Sentry the last migration went to, offered again.
	lastMigrate MigrateTarget
}

func (sh *shared) explain(err error) string {
	return sh.explainRetry(err, "press "+keyName(sh.keys.Refresh)+" to retry")
}

// explainRetry words err with retry as the way to try again from here: a
// screen where r is a letter of a field says another key.
func (sh *shared) explainRetry(err error, retry string) string {
	var sf *sentryFailure
	switch {
	case errors.As(err, &sf):
		return explain.Sentry(sf.err, sf.base, explain.Context{Retry: retry, NoCommandLine: true})
	case explain.FromSentry(err):
		return explain.Sentry(err, "", explain.Context{Retry: retry, NoCommandLine: true})
	}
	return explain.Error(err, explain.Context{Host: sh.deps.Host, Retry: retry, Login: "log in again", TokenEnv: sh.deps.TokenEnv})
}

// tokenStore names where the console's token is kept.
func (sh *shared) tokenStore() string {
	if sh.deps.Demo {
		return "memory (the demo keeps nothing)"
	}
	return "the system keyring"
}

// readOnly: the token can read but not write (a read_api token).
func (sh *shared) readOnly() bool { return sh.token.ReadOnly() }

// failed reports err in the status line, or sends a 401 to the login screen.
func (sh *shared) failed(err error) tea.Cmd {
	if gitlabRefused(err) {
		return msgCmd(authFailedMsg{err})
	}
	return statusCmd(statusError, sh.explain(err))
}

// failedOnce reports a failed load once: a pane with nothing earlier to show
// draws the error itself, so only a 401 needs more.
func (sh *shared) failedOnce(err error, paneShows bool) tea.Cmd {
	if paneShows && !sh.loginHelps(err) {
		return nil
	}
	return sh.failed(err)
}

// loginHelps reports a refused token the login screen can replace: not one
// from the environment, which the pane's error tells how to change.
func (sh *shared) loginHelps(err error) bool {
	return gitlabRefused(err) && sh.deps.TokenEnv == ""
}

// gitlabRefused: GitLab refused the console's token (a 401 of a
// Sentry's is that Sentry token's: logging in to GitLab does not fix it).
func gitlabRefused(err error) bool {
	return errors.Is(err, apiclient.ErrUnauthorized) && !explainsSentry(err)
}

// voice lends a write's outcome the console's words.
func (sh *shared) voice() voice {
	return voice{keys: sh.keys, explain: sh.explain, host: sh.deps.Host, tokenStore: sh.tokenStore(), now: sh.clock.Now()}
}

// userName is the token's user, "" until it is known.
func (sh *shared) userName() string {
	if sh.token.User == nil {
		return ""
	}
	return sh.token.User.Username
}

// rotations is the ledger as the console's own rotations write it.
func (sh *shared) rotations() *rotation.Rotations {
	return sh.deps.Rotations.WithFrontEnd(rotation.FrontEndConsole).WithUser(sh.userName())
}

// ctx is the program's context, which every command the console starts
// runs under: quitting stops them.
func (sh *shared) ctx() context.Context {
	if sh.deps.Context != nil {
		return sh.deps.Context
	}
	return context.Background()
}
