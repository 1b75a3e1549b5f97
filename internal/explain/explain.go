// Package explain turns errtrack's typed errors into words a maintainer can
// act on: what went wrong and what to do next. The console and the
// scriptable commands both use it, so they say the same thing.
package explain

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/safetext"
	"github.com/errtrack/errtrack/keyring"
)

// Context fills in the parts of the advice that depend on where it is read.
type Context struct {
	Host  string // the GitLab host, for "errtrack login --host ..."
	Retry string // how to retry here: "press r to retry" or "run the command again"
	Login string // how to log in again here; defaults to the login command
}

// Error returns one or two sentences for err.
func Error(err error, c Context) string {
	if err == nil {
		return ""
	}
	if c.Retry == "" {
		c.Retry = "try again"
	}
	if c.Login == "" {
		c.Login = "run 'errtrack login"
		if c.Host != "" {
			c.Login += " --host " + c.Host
		}
		c.Login += "'"
	}
	var apiErr *apiclient.APIError
	var krErr *keyring.Error
	switch {
	case errors.As(err, &krErr):
		return capitalize(krErr.Error()) + "."
	case errors.Is(err, context.Canceled):
		return "Cancelled."
	case !errors.As(err, &apiErr):
		return capitalize(safetext.Clean(err.Error())) + "."
	}
	server := ""
	if apiErr.Message != "" {
		server = " (server said: " + apiErr.Message + ")"
	}
	switch {
	case errors.Is(err, apiclient.ErrTokenExpired):
		return "Your token has expired. Create a new personal access token with the api scope, then " + c.Login + "."
	case errors.Is(err, apiclient.ErrTokenRevoked):
		return "Your token was revoked. Create a new personal access token with the api scope, then " + c.Login + "."
	case errors.Is(err, apiclient.ErrUnauthorized):
		return "The server did not accept your token: it is wrong, expired or revoked. " + capitalize(c.Login) + " with a valid token."
	case errors.Is(err, apiclient.ErrInsufficientScope):
		return "Your token lacks the api scope this change needs (it can only read). Create a token with the api scope, then " + c.Login + "."
	case errors.Is(err, apiclient.ErrForbidden):
		return "You need the Maintainer role on this project to manage error tracking. Ask a project Owner or Maintainer to raise your role."
	case errors.Is(err, apiclient.ErrProjectNotFound):
		return "Project not found, or not visible to you. Check the project path or ID, and that you are a member."
	case errors.Is(err, apiclient.ErrSettingsNotFound):
		return "Error tracking is not configured for this project yet. Create the settings first."
	case errors.Is(err, apiclient.ErrIntegratedUnavailable):
		return "Integrated error tracking is not available on this GitLab instance (it is offered on GitLab.com, or an administrator has not enabled it)."
	case errors.Is(err, apiclient.ErrKeyNotFound):
		return "That client key is already gone (perhaps deleted elsewhere). Refresh the list to see the current keys."
	case errors.Is(err, apiclient.ErrNotFound):
		return "Not found" + server + ". Check the host URL and the project."
	case errors.Is(err, apiclient.ErrUpdateFailed):
		return "The server refused the change" + server + "."
	case errors.Is(err, apiclient.ErrValidation):
		return "The server rejected the request as invalid" + server + "."
	case errors.Is(err, apiclient.ErrRateLimited):
		if apiErr.RetryAfter > 0 {
			return fmt.Sprintf("The server is rate limiting requests. Wait %d s, then %s.", int(math.Ceil(apiErr.RetryAfter.Seconds())), c.Retry)
		}
		return "The server is rate limiting requests. Wait a little, then " + c.Retry + "."
	case errors.Is(err, apiclient.ErrCrossRedirect):
		return capitalize(apiErr.Message) + "."
	case errors.Is(err, apiclient.ErrServer) && apiErr.StatusCode == 0:
		return capitalize(apiErr.Message) + ". Check your network and the host URL, then " + c.Retry + "."
	case errors.Is(err, apiclient.ErrServer):
		return fmt.Sprintf("The server or a proxy in front of it failed (HTTP %d)%s. Wait a moment, then %s.", apiErr.StatusCode, server, c.Retry)
	case errors.Is(err, apiclient.ErrTooLarge):
		return "The server's answer was too large to read safely. Check the host URL points at GitLab."
	case errors.Is(err, apiclient.ErrBadResponse):
		return "The server's answer is not what GitLab sends: " + apiErr.Message + ". Check the host URL points at a GitLab instance."
	}
	return capitalize(apiErr.Error()) + "."
}

func capitalize(s string) string {
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
