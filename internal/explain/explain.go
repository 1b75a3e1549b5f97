// Package explain turns errtrack's typed errors into words a maintainer can
// act on: what went wrong and what to do next. It is the one place where
// error text for people is made: the console and the scriptable commands
// both call it, and everything it returns is cleaned of escape sequences and
// control characters, whatever the error carried (a server's message, a
// certificate's names, a proxy's reason phrase).
package explain

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/hosturl"
	"github.com/errtrack/errtrack/internal/safetext"
	"github.com/errtrack/errtrack/keyring/keyerr"
)

// Context fills in the parts of the advice that depend on where it is read.
type Context struct {
	Host  string // the GitLab host, for "errtrack login --host ..."
	Retry string // how to retry here: "press r to retry" or "run the command again"
	Login string // how to log in again here; defaults to the login command
	// TokenEnv names the environment variable the token came from, when it
	// did: logging in changes nothing while it is set, so token errors say
	// to change the variable instead.
	TokenEnv string
	// NoCommandLine: the reader is not at a command line (the console),
	// so a command the advice names is said to be run from one.
	NoCommandLine bool
}

// Error returns one or two sentences for err, safe to draw on a terminal.
func Error(err error, c Context) string {
	if err == nil {
		return ""
	}
	return safetext.Clean(words(err, c))
}

// Text cleans a sentence errtrack built from parts that may hold untrusted
// text, for the places that word an outcome rather than an error.
func Text(s string) string { return safetext.Clean(s) }

func words(err error, c Context) string {
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
	var krErr *keyerr.Error
	switch {
	case errors.As(err, &krErr):
		return keyringWords(krErr, c)
	case errors.Is(err, context.Canceled) && !errors.As(err, &apiErr):
		return "Cancelled."
	case !errors.As(err, &apiErr):
		return capitalize(err.Error()) + "."
	}
	server := ""
	if apiErr.Message != "" {
		server = " (server said: " + apiErr.Message + ")"
	}
	newToken := "Create a new personal access token with the api scope, then " + c.Login + "."
	if c.TokenEnv != "" {
		newToken = fmt.Sprintf("The token comes from %s: set it to a valid token with the api scope, or unset it to use the keyring (logging in changes nothing while it is set).", c.TokenEnv)
	}
	switch {
	case errors.Is(err, apiclient.ErrTokenExpired):
		return "Your token has expired. " + newToken
	case errors.Is(err, apiclient.ErrTokenRevoked):
		return "Your token was revoked. " + newToken
	case errors.Is(err, apiclient.ErrUnauthorized):
		return "The server did not accept your token: it is wrong, expired or revoked. " + newToken
	case errors.Is(err, apiclient.ErrBadToken):
		return "The token holds a space, a line break or a control character, so it cannot be sent. " + newToken
	case errors.Is(err, apiclient.ErrInsufficientScope):
		if c.TokenEnv != "" {
			return fmt.Sprintf("Your token lacks the api scope this change needs (it can only read). The token comes from %s: set it to a token with the api scope.", c.TokenEnv)
		}
		return "Your token lacks the api scope this change needs (it can only read). Create a token with the api scope, then " + c.Login + "."
	case errors.Is(err, apiclient.ErrForbidden):
		return "You need the Maintainer role on this project to manage error tracking. Ask a project Owner or Maintainer to raise your role."
	case errors.Is(err, apiclient.ErrProjectNotFound):
		return "Project not found, or not visible to you. Check the project path or ID, and that you are a member."
	case errors.Is(err, apiclient.ErrGroupNotFound):
		return "Group not found, or not visible to you. Check the group path or ID (group/subgroup), and that you are a member of a project in it."
	case errors.Is(err, apiclient.ErrSettingsNotFound):
		return "Error tracking is not configured for this project yet. Create the settings first."
	case errors.Is(err, apiclient.ErrRouteMissing):
		return missingRoute(apiErr)
	case errors.Is(err, apiclient.ErrIntegratedUnavailable):
		return IntegratedUnavailable
	case errors.Is(err, apiclient.ErrKeyNotFound):
		return "The server has no such client key. Refresh the list to see the current keys."
	case errors.Is(err, apiclient.ErrVariableNotFound):
		return "The project has no CI/CD variable of that name in that environment scope."
	case errors.Is(err, apiclient.ErrVariableAmbiguous):
		return "Several CI/CD variables have that name, in different environment scopes: choose one with --environment-scope."
	case errors.Is(err, apiclient.ErrNotFound):
		return "Not found" + server + ". Check the host URL and the project."
	case errors.Is(err, apiclient.ErrUpdateFailed):
		return "The server refused the change" + server + "."
	case errors.Is(err, apiclient.ErrValidation) && apiErr.StatusCode == 0:
		// Refused by errtrack itself: nothing was sent.
		return "errtrack did not send the request: " + strings.TrimSuffix(apiErr.Message, ".") + "."
	case errors.Is(err, apiclient.ErrValidation):
		return "The server rejected the request as invalid" + server + "."
	case errors.Is(err, apiclient.ErrRateLimited):
		return rateLimited(apiErr, c)
	case errors.Is(err, apiclient.ErrRedirectedWrite):
		return capitalize(apiErr.Message) + ". Check the host URL (errtrack never re-sends a change to a new address)."
	case errors.Is(err, apiclient.ErrCrossRedirect):
		return capitalize(apiErr.Message) + ". Check the host URL."
	case errors.Is(err, apiclient.ErrInsecureURL):
		return capitalize(apiErr.Message) + ". Use https://, or pass --allow-insecure-http for a trusted test network."
	case errors.Is(err, apiclient.ErrPlainHTTP):
		if h := strings.Replace(c.Host, "https://", "http://", 1); h != c.Host && hosturl.IsLoopback(h) {
			return capitalize(apiErr.Message) + ". For a server on this machine use --host " + h + "."
		}
		return capitalize(apiErr.Message) + ". Check the host URL: errtrack sends the token over plain HTTP only to this machine (or with --allow-insecure-http, for a trusted test network)."
	case errors.Is(err, apiclient.ErrTLS):
		return capitalize(apiErr.Message) + ". For a self-managed GitLab with a private CA, pass its certificate with --ca-file."
	case errors.Is(err, apiclient.ErrTimeout):
		return "The server did not answer in time: " + apiErr.Message + ". Check your network and the host URL, then " + c.Retry + "."
	case errors.Is(err, apiclient.ErrNetwork):
		return capitalize(apiErr.Message) + ". Check your network and the host URL, then " + c.Retry + "."
	case errors.Is(err, apiclient.ErrCanceled):
		return "Interrupted before the server answered."
	case errors.Is(err, apiclient.ErrServer):
		return fmt.Sprintf("The server or a proxy in front of it failed (HTTP %d)%s. Wait a moment, then %s.", apiErr.StatusCode, server, c.Retry)
	case errors.Is(err, apiclient.ErrTooLarge):
		return "The server's answer was too large to read safely (" + apiErr.Message + "). Check the host URL points at GitLab."
	case errors.Is(err, apiclient.ErrBadResponse):
		return "The server's answer is not what GitLab sends: " + apiErr.Message + ". Check the host URL points at a GitLab instance."
	}
	return capitalize(apiErr.Error()) + "."
}

// rateLimited words a 429: the wait the server asked for, as a date when
// it is so far off that a number of seconds says nothing.
func rateLimited(e *apiclient.APIError, c Context) string {
	switch d := e.RetryAfter; {
	case d <= 0:
		return "The server is rate limiting requests. Wait a little, then " + c.Retry + "."
	case d > 24*time.Hour && !e.RetryAt.IsZero():
		return fmt.Sprintf("The server is rate limiting requests until %s, %s from now: too far off to be GitLab's rate limit. Check the host URL points at GitLab, or ask its administrators; then %s.",
			e.RetryAt.UTC().Format("2006-01-02 15:04 MST"), Duration(d), c.Retry)
	default:
		return fmt.Sprintf("The server is rate limiting requests. Wait %s, then %s.", Duration(d), c.Retry)
	}
}

// Duration words a wait as people say it: "2 s", "25 min", "3 h", "27 days".
func Duration(d time.Duration) string {
	switch {
	case d <= 5*time.Minute:
		return fmt.Sprintf("%d s", int(math.Ceil(d.Seconds())))
	case d < 2*time.Hour:
		return fmt.Sprintf("%d min", int(math.Ceil(d.Minutes())))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h", int(math.Ceil(d.Hours())))
	}
	return fmt.Sprintf("%d days", int(math.Ceil(d.Hours()/24)))
}

// IntegratedUnavailable explains a project for which integrated error
// tracking is off (the feature flag is checked per project), the default of
// self-managed instances, and what still works there.
const IntegratedUnavailable = "Integrated error tracking is not available for this project on this GitLab: it is a GitLab.com feature, " +
	"which self-managed instances have behind the integrated_error_tracking feature flag (off by default; an admin can enable it for the instance or for some projects). " +
	"What still works: an external Sentry, whose settings errtrack reads and enables or disables here and which is " +
	"configured in the web UI (Settings > Monitor > Error Tracking); client keys can still be listed and created."

// SettingsNote warns about settings that use neither backend: integrated
// off and no Sentry configured, as GitLab reports where its feature flag is
// off. It is "" otherwise.
func SettingsNote(s *apiclient.Settings) string {
	if s == nil || s.Integrated || s.NoIntegrated || s.APIURL != nil {
		return ""
	}
	return "Neither integrated error tracking nor an external Sentry is in use, so errors are not collected. " +
		"If integrated error tracking cannot be switched on, this GitLab has it off (a feature flag on self-managed instances): " +
		"configure a Sentry in the web UI, Settings > Monitor > Error Tracking."
}

// feature names what an endpoint does and the release that added it
// (gitlab-api.md §12).
type feature struct {
	method, suffix, what, since, instead string
}

var features = []feature{
	{"PUT", "/error_tracking/settings", "API to create error tracking settings", "15.10",
		"create them in the web UI, Settings > Monitor > Error Tracking, then enable or disable them here"},
	{"PATCH", "/error_tracking/settings", "API to enable or disable error tracking settings", "12.8",
		"change them in the web UI, Settings > Monitor > Error Tracking"},
	{"GET", "/error_tracking/settings", "API for error tracking settings", "12.7",
		"use the web UI, Settings > Monitor > Error Tracking"},
	{"", "/error_tracking/client_keys", "client keys for error tracking", "14.3",
		"client keys need GitLab 14.3 or later"},
	{"POST", "/personal_access_tokens/self/rotate", "API to rotate the token in use", "16.10",
		"rotate it in the web UI, User settings > Access tokens, then log in again with the new token"},
	{"GET", "/personal_access_tokens/self", "API to describe the token in use", "15.5",
		"its scopes and expiry show in the web UI, Access Tokens"},
}

// missingRoute words a catch-all 404: which release lacks what, since when,
// and what to do instead. A release that should have the route means the
// host URL does not point at GitLab's API.
func missingRoute(e *apiclient.APIError) string {
	server := "This GitLab"
	v := apiclient.ServerVersion{Version: e.ServerVersion}
	if e.ServerVersion != "" {
		server = "GitLab " + v.Short()
	}
	for _, f := range features {
		if (f.method != "" && f.method != e.Method) || !strings.Contains(e.Path, f.suffix) {
			continue
		}
		var maj, min int
		fmt.Sscanf(f.since, "%d.%d", &maj, &min)
		if e.ServerVersion != "" && v.AtLeast(maj, min) {
			break
		}
		return fmt.Sprintf("%s has no %s (added in %s): %s.", server, f.what, f.since, f.instead)
	}
	return fmt.Sprintf("%s has no API route %s %s. Check that the host URL points at GitLab (with its path, for an instance under a relative URL root).", server, e.Method, e.Path)
}

func keyringWords(e *keyerr.Error, c Context) string {
	switch e.Kind {
	case keyerr.ErrNotFound:
		return fmt.Sprintf("No token is stored for %s. %s, or set GITLAB_TOKEN.", e.Host, capitalize(c.Login))
	case keyerr.ErrTimeout:
		return "The system keyring did not answer in time (it may be locked and waiting for an unlock prompt). Unlock it and " + c.Retry + ", or set GITLAB_TOKEN."
	}
	cause := ""
	if e.Cause != "" {
		cause = ": " + strings.TrimSuffix(e.Cause, ".") // its own parentheses stay unnested
	}
	return "The system keyring is not available" + cause + ". Start a Secret Service such as gnome-keyring and unlock it, or set GITLAB_TOKEN."
}

func capitalize(s string) string {
	s = strings.TrimSuffix(strings.TrimSpace(s), ".")
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
