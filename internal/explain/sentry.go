package explain

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/safetext"
)

// Sentry words a failure of a Sentry-backed project's Sentry (base is its
// URL, "" for the one the error names): a missing or refused Sentry token is fixed by
// logging in to that Sentry, never to GitLab. c.Retry says how to retry.
func Sentry(err error, base string, c Context) string {
	if base == "" {
		// The error knows where it came from.
		var te *sentry.TokenError
		var se *sentry.Error
		switch {
		case errors.As(err, &te):
			base = te.Base
		case errors.As(err, &se):
			base = se.Base
		}
	}
	login := "'errtrack login --sentry " + base + "'"
	if base == "" {
		login = "'errtrack login --sentry URL' (the Sentry's address)"
	}
	if c.NoCommandLine {
		login += " from the command line"
	}
	var te *sentry.TokenError
	var se *sentry.Error
	var s string
	switch {
	case errors.As(err, &te) && te.Err != nil:
		// The keyring's words name GitLab's variable; Sentry's is another.
		s = strings.ReplaceAll(Error(te.Err, Context{Host: base}), "GITLAB_TOKEN", "SENTRY_AUTH_TOKEN with SENTRY_URL="+base)
	case errors.As(err, &te) && te.EnvBase != "":
		// A token is set, for another host: never advise moving it to
		// this one, which may be anyone's (a project's settings can name
		// any host).
		s = fmt.Sprintf("No Sentry token for %s: SENTRY_AUTH_TOKEN is for %s, and errtrack sends it nowhere else (do not point SENTRY_URL at %s to use it). errtrack was never logged in to %s: if it is your Sentry, run %s with a token made on it; if not, correct the project's error tracking settings.",
			base, te.EnvBase, base, base, login)
	case errors.Is(err, sentry.ErrNoToken):
		s = fmt.Sprintf("No Sentry token for %s: errtrack was never logged in to it. If it is your Sentry, run %s with a token made on %s, or set SENTRY_AUTH_TOKEN (a token of %s) with SENTRY_URL=%s; if not, correct the project's error tracking settings.",
			base, login, base, base, base)
	case errors.Is(err, sentry.ErrTokenExpired):
		s = "Sentry says the token has expired. Create a new one in Sentry (Settings → Auth Tokens) and run " + login + "."
	case errors.As(err, &se) && se.Kind == sentry.ErrProjectMoved && se.Moved != nil:
		m := se.Moved
		from, to := safetext.Excerpt(m.Org+"/"+m.Slug, 120), safetext.Excerpt(m.Org+"/"+m.NewSlug, 120)
		s = "The Sentry project " + from + " was renamed to " + to + ", so nothing was changed: GitLab's error tracking settings still name " + from +
			". Choose " + to + " on the project's Settings > Monitor > Error Tracking page in GitLab, then " + retryOr(c, "try again") + "."
	case errors.Is(err, sentry.ErrOtherOrganization):
		s = "The Sentry token is limited to another organization than this project's (" + err.Error() + "). Log in with a token of the project's organization: " + login + "."
	case errors.Is(err, sentry.ErrOrgLimitedRoute):
		s = "The Sentry token is limited to one organization, and this request names none (" + err.Error() + "): use a personal token without an organization limit, and " + login + "."
	case errors.Is(err, sentry.ErrUnauthorized):
		s = "Sentry refused the token (" + err.Error() + "). Check that it is an auth token of " + base + " and log in again with " + login + "."
	case errors.As(err, &se) && se.OrgToken && errors.Is(err, sentry.ErrForbidden):
		s = "The Sentry token is an organization token (sntrys_…, scope org:ci), which cannot read or change a project's keys (" + err.Error() + "). Create a personal auth token with project:read and project:write (project:admin to delete keys) at " +
			strings.TrimSuffix(base, "/") + "/settings/account/api/auth-tokens/ and run " + login + "."
	case errors.Is(err, sentry.ErrInsufficientScope), errors.Is(err, sentry.ErrForbidden):
		s = err.Error() + ". Give the token the scope named (project:write to make and change keys, project:admin to delete them)."
	case errors.Is(err, sentry.ErrBadAPIURL):
		s = err.Error() + "."
	case errors.Is(err, sentry.ErrRateLimited):
		// Sentry's limit, or errtrack's pacing of its host: either way
		// Sentry's, never GitLab's.
		if wait := sentryWait(err); wait > 0 {
			s = fmt.Sprintf("The Sentry at %s is limiting this token's requests for %s: %s after %s.", base, wait, retryOr(c, "try again"), time.Now().Add(wait).Format("15:04:05"))
		} else {
			s = "The Sentry at " + base + " is limiting this token's requests and did not say for how long: " + retryOr(c, "try again") + " in a minute."
		}
	case errors.Is(err, apiclient.ErrTooLarge):
		s = "The Sentry at " + base + " sent an answer too large to read safely (" + err.Error() + "). Check that the project's error tracking settings name a Sentry project (their API URL), and try again."
	case errors.Is(err, sentry.ErrServer):
		s = "The Sentry at " + base + " failed to answer (" + err.Error() + "): " + retryOr(c, "try again") + " in a moment."
	default:
		if c.Retry == "" {
			c.Retry = "try again"
		}
		return Error(err, Context{Host: base, Retry: c.Retry})
	}
	return safetext.Clean(s)
}

// FromSentry reports an error that came from a Sentry or its token (a
// Sentry's answer, a missing Sentry token, an api_url errtrack cannot
// use): a 401 among them is the Sentry token's, not GitLab's.
func FromSentry(err error) bool {
	var se *sentry.Error
	return errors.As(err, &se) || errors.Is(err, sentry.ErrNoToken) || errors.Is(err, sentry.ErrBadAPIURL)
}

// sentryWait is how long a rate limit asks to wait, 0 where it does not
// say.
func sentryWait(err error) time.Duration {
	var wait time.Duration
	var se *sentry.Error
	var ae *apiclient.APIError
	switch {
	case errors.As(err, &se) && se.RetryAfter > 0:
		wait = se.RetryAfter
	case errors.As(err, &ae) && !ae.RetryAt.IsZero():
		wait = time.Until(ae.RetryAt)
	}
	return max(wait.Round(time.Second), 0)
}

func retryOr(c Context, def string) string {
	if c.Retry != "" {
		return c.Retry
	}
	return def
}
