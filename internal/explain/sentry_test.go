package explain

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/keyring"
)

// A Sentry's failures say what to do about that Sentry (its token, its
// login), never about GitLab's token.
func TestSentryWordsNameTheSentry(t *testing.T) {
	const base = "https://sentry.example.com"
	c := Context{Retry: "press r to retry"}
	cases := []struct {
		err  error
		base string
		want string
	}{
		{&sentry.TokenError{Base: base}, "", "run 'errtrack login --sentry " + base + "' with a token made on " + base + ", or set SENTRY_AUTH_TOKEN (a token of " + base + ") with SENTRY_URL=" + base},
		{&sentry.TokenError{Base: base, Err: &keyring.Error{Kind: keyring.ErrUnavailable, Cause: "no bus"}}, "", "SENTRY_AUTH_TOKEN with SENTRY_URL=" + base},
		{&sentry.Error{StatusCode: 401, Kind: sentry.ErrUnauthorized}, base, "log in again with 'errtrack login --sentry " + base + "'"},
		{&sentry.Error{StatusCode: 401, Kind: sentry.ErrUnauthorized}, "", "'errtrack login --sentry URL'"},
		// The error names its Sentry: the words take it from there.
		{&sentry.Error{Base: base, StatusCode: 401, Kind: sentry.ErrUnauthorized}, "", "log in again with 'errtrack login --sentry " + base + "'"},
		{&sentry.Error{StatusCode: 401, Kind: sentry.ErrTokenExpired}, base, "has expired"},
		{&sentry.Error{StatusCode: 403, Kind: sentry.ErrInsufficientScope, Scopes: []string{"project:admin"}}, base, "project:admin"},
		{sentry.ErrBadAPIURL, "", "not a usable Sentry project API URL."},
		{&sentry.Error{StatusCode: 302, Kind: sentry.ErrProjectMoved, Moved: &sentry.ProjectMoved{Org: "acme", Slug: "web", NewSlug: "web-eu"}}, base,
			"The Sentry project acme/web was renamed to acme/web-eu, so nothing was changed: GitLab's error tracking settings still name acme/web. Choose acme/web-eu on the project's Settings > Monitor > Error Tracking page in GitLab, then press r to retry."},
		{&sentry.Error{StatusCode: 403, Kind: sentry.ErrInsufficientScope, OrgToken: true}, base, "is an organization token (sntrys_…, scope org:ci), which cannot read or change a project's keys"},
		{&sentry.Error{StatusCode: 401, Kind: sentry.ErrOtherOrganization}, base, "limited to another organization than this project's"},
		{&sentry.Error{StatusCode: 401, Kind: sentry.ErrOrgLimitedRoute}, base, "limited to one organization"},
		{&apiclient.APIError{Kind: apiclient.ErrNetwork, Message: "could not reach the server"}, base, "press r to retry"},
	}
	for _, tc := range cases {
		got := Sentry(tc.err, tc.base, c)
		if !strings.Contains(got, tc.want) {
			t.Errorf("Sentry(%v) = %q, want it to contain %q", tc.err, got, tc.want)
		}
		if strings.Contains(got, "GITLAB_TOKEN") || strings.Contains(got, "--host") {
			t.Errorf("Sentry(%v) = %q speaks of GitLab's token", tc.err, got)
		}
	}
}

// No token for the Sentry a project's settings name, while SENTRY_AUTH_TOKEN
// is set for another: the advice names the host the set token belongs to,
// warns that the settings' host was never logged in to, and never says to
// point SENTRY_URL (and so the token) at it.
func TestSentryTokenAdviceKeepsTheTokenHome(t *testing.T) {
	const mine, theirs = "https://sentry.example.com", "https://sentry.attacker.example"
	got := Sentry(&sentry.TokenError{Base: theirs, EnvBase: mine}, theirs, Context{})
	for _, want := range []string{"SENTRY_AUTH_TOKEN is for " + mine, "never logged in to " + theirs, "'errtrack login --sentry " + theirs + "'"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	if strings.Contains(got, "SENTRY_URL="+theirs) {
		t.Errorf("the advice hands the token to %s: %q", theirs, got)
	}
}

// A Sentry's 429 says when to try again, told or not; an answer too large
// to read is the Sentry's, not "check the host URL points at GitLab".
func TestSentryLimitAndSizeWords(t *testing.T) {
	const base = "https://sentry.example.com"
	told := Sentry(&sentry.Error{StatusCode: 429, Kind: sentry.ErrRateLimited, RetryAfter: 90 * time.Second}, base, Context{Retry: "run the command again"})
	if !strings.Contains(told, "1m30s") || !strings.Contains(told, "run the command again after ") {
		t.Errorf("%q", told)
	}
	untold := Sentry(&sentry.Error{StatusCode: 429, Kind: sentry.ErrRateLimited}, base, Context{Retry: "run the command again"})
	if strings.Contains(untold, "then.") || !strings.Contains(untold, "in a minute") {
		t.Errorf("%q", untold)
	}
	big := Sentry(&apiclient.APIError{Kind: apiclient.ErrTooLarge, Message: "more than 16777216 bytes"}, base, Context{})
	if strings.Contains(big, "GitLab") || !strings.Contains(big, base) {
		t.Errorf("%q", big)
	}
}

// A 401 of a Sentry is told apart from GitLab's: only GitLab's sends the
// console to its login screen.
func TestFromSentry(t *testing.T) {
	for _, err := range []error{&sentry.Error{StatusCode: 401, Kind: sentry.ErrUnauthorized}, &sentry.TokenError{Base: "https://s"}, sentry.ErrBadAPIURL} {
		if !FromSentry(err) {
			t.Errorf("FromSentry(%v) = false", err)
		}
	}
	for _, err := range []error{&apiclient.APIError{StatusCode: 401, Kind: apiclient.ErrUnauthorized}, errors.New("x"), nil} {
		if FromSentry(err) {
			t.Errorf("FromSentry(%v) = true", err)
		}
	}
}

// A Sentry's rate limit and failures are worded as the Sentry's, with the
// wait it asks, never as GitLab's.
func TestSentryLimitsAndFailuresAreTheSentrys(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&sentry.Error{StatusCode: 429, Kind: sentry.ErrRateLimited, RetryAfter: 30 * time.Second, Message: "slow down"}, "is limiting this token's requests for 30s"},
		{&apiclient.APIError{StatusCode: 429, Kind: apiclient.ErrRateLimited}, "is limiting this token's requests"},
		{&sentry.Error{StatusCode: 502, Kind: sentry.ErrServer, Message: "bad gateway"}, "failed to answer"},
	} {
		got := Sentry(tc.err, "https://sentry.example.com", Context{Retry: "run it again"})
		if !strings.Contains(got, tc.want) || !strings.Contains(got, "https://sentry.example.com") || strings.Contains(got, "GitLab") || !strings.Contains(got, "run it again") {
			t.Errorf("%v: %q", tc.err, got)
		}
	}
}

// Where the reader is not at a command line (the console), a login to a
// Sentry, which only the commands do, is said to be run from one.
func TestSentryLoginSaidToBeTheCommandLines(t *testing.T) {
	const base = "https://sentry.example.com"
	for _, err := range []error{&sentry.TokenError{Base: base}, &sentry.Error{StatusCode: 401, Kind: sentry.ErrUnauthorized},
		&sentry.Error{StatusCode: 401, Kind: sentry.ErrTokenExpired}, &sentry.Error{StatusCode: 403, Kind: sentry.ErrInsufficientScope, OrgToken: true}} {
		here := Sentry(err, base, Context{Retry: "press r to retry", NoCommandLine: true})
		if !strings.Contains(here, "'errtrack login --sentry "+base+"' from the command line") {
			t.Errorf("%v: %q", err, here)
		}
		if shell := Sentry(err, base, Context{}); strings.Contains(shell, "from the command line") {
			t.Errorf("%v at a command line: %q", err, shell)
		}
	}
}
