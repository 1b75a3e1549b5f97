package explain

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/keyring"
	"github.com/errtrack/errtrack/keyring/keyerr"
)

func TestEveryClassSaysWhatToDo(t *testing.T) {
	c := Context{Host: "https://gitlab.example.com", Retry: "press r to retry"}
	cases := []struct {
		err  error
		want string
	}{
		{&apiclient.APIError{StatusCode: 401, Kind: apiclient.ErrTokenExpired}, "errtrack login --host https://gitlab.example.com"},
		{&apiclient.APIError{StatusCode: 401, Kind: apiclient.ErrTokenRevoked}, "revoked"},
		{&apiclient.APIError{StatusCode: 401, Kind: apiclient.ErrUnauthorized}, "did not accept your token"},
		{&apiclient.APIError{StatusCode: 403, Kind: apiclient.ErrInsufficientScope}, "api scope"},
		{&apiclient.APIError{StatusCode: 403, Kind: apiclient.ErrForbidden}, "Maintainer role"},
		{&apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrProjectNotFound}, "Check the project path"},
		{&apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrSettingsNotFound}, "Create the settings first"},
		{&apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrIntegratedUnavailable}, "behind the integrated_error_tracking feature flag"},
		{&apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrRouteMissing, Method: "PUT", Path: "/api/v4/projects/1/error_tracking/settings", ServerVersion: "15.4.1-ee"},
			"GitLab 15.4 has no API to create error tracking settings (added in 15.10): create them in the web UI, Settings > Monitor > Error Tracking, then enable or disable them here."},
		{&apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrRouteMissing, Method: "POST", Path: "/api/v4/projects/1/error_tracking/client_keys", ServerVersion: "14.1.0"},
			"GitLab 14.1 has no client keys for error tracking (added in 14.3)"},
		{&apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrRouteMissing, Method: "PATCH", Path: "/api/v4/projects/1/error_tracking/settings", ServerVersion: "12.7.0"},
			"GitLab 12.7 has no API to enable or disable error tracking settings (added in 12.8)"},
		{&apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrRouteMissing, Method: "PUT", Path: "/api/v4/projects/1/error_tracking/settings", ServerVersion: "17.5.0"},
			"GitLab 17.5 has no API route PUT"},
		{&apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrRouteMissing, Method: "GET", Path: "/api/v4/projects/1/error_tracking/client_keys"},
			"This GitLab has no client keys for error tracking (added in 14.3)"},
		{&apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrKeyNotFound}, "no such client key"},
		{&apiclient.APIError{StatusCode: 429, Kind: apiclient.ErrRateLimited, RetryAfter: 1500 * time.Millisecond}, "Wait 2 s, then press r to retry"},
		{&apiclient.APIError{StatusCode: 429, Kind: apiclient.ErrRateLimited, RetryAfter: 25 * time.Minute}, "Wait 25 min"},
		{&apiclient.APIError{StatusCode: 429, Kind: apiclient.ErrRateLimited, RetryAfter: 80 * 24 * time.Hour, RetryAt: time.Date(2099, 1, 1, 0, 0, 0, 0, time.UTC)},
			"rate limiting requests until 2099-01-01 00:00 UTC, 80 days from now"},
		{&apiclient.APIError{Kind: apiclient.ErrValidation, Message: "the path must not hold . or .. segments"}, "errtrack did not send the request: the path must not hold . or .. segments."},
		{&apiclient.APIError{StatusCode: 400, Kind: apiclient.ErrValidation, Message: "key is invalid"}, "The server rejected the request as invalid (server said: key is invalid)."},
		{&apiclient.APIError{Kind: apiclient.ErrTooLarge, Message: "its headers are over 256 KiB"}, "too large to read safely (its headers are over 256 KiB)"},
		{&apiclient.APIError{StatusCode: 502, Kind: apiclient.ErrServer}, "HTTP 502"},
		{&apiclient.APIError{Kind: apiclient.ErrNetwork, Message: "could not reach the server: connection refused"}, "Check your network"},
		{&apiclient.APIError{Kind: apiclient.ErrTimeout, Message: "no complete answer within 30s"}, "did not answer in time"},
		{&apiclient.APIError{Kind: apiclient.ErrTLS, Message: "the server's TLS certificate was not accepted: x509"}, "--ca-file"},
		{&apiclient.APIError{Kind: apiclient.ErrRedirectedWrite, Message: "the server answered PATCH /x with a redirect to /y; the change was not re-sent there"}, "not re-sent"},
		{&apiclient.APIError{Kind: apiclient.ErrBadToken}, "line break"},
		{&keyring.Error{Kind: keyring.ErrNotFound, Host: "https://gitlab.example.com"}, "errtrack login --host https://gitlab.example.com"},
		{&keyring.Error{Kind: keyring.ErrTimeout}, "Unlock it"},
		{&apiclient.APIError{StatusCode: 200, Kind: apiclient.ErrUpdateFailed, Message: "api url is a required field"}, "refused the change (server said: api url"},
		{&keyring.Error{Kind: keyring.ErrUnavailable, Cause: "no bus"}, "GITLAB_TOKEN"},
		{errors.New("plain \x1b[2Jtrouble"), "Plain trouble."},
	}
	for _, tc := range cases {
		got := Error(tc.err, c)
		if !strings.Contains(got, tc.want) {
			t.Errorf("Error(%v) = %q, want it to contain %q", tc.err, got, tc.want)
		}
	}
}

// Whatever an error carries (a server's message, a certificate's names, a
// proxy's reason phrase), the words that come out are safe to draw.
func TestOutputIsAlwaysClean(t *testing.T) {
	const attack = "\x1b]0;owned\x07\x1b]52;c;eA==\x07\x1b[2J\u202e\u009b31m\u200b"
	kinds := []error{apiclient.ErrUnauthorized, apiclient.ErrForbidden, apiclient.ErrNotFound, apiclient.ErrValidation,
		apiclient.ErrUpdateFailed, apiclient.ErrRateLimited, apiclient.ErrServer, apiclient.ErrBadResponse, apiclient.ErrCrossRedirect,
		apiclient.ErrRedirectedWrite, apiclient.ErrTLS, apiclient.ErrNetwork, apiclient.ErrTimeout, apiclient.ErrTooLarge,
		apiclient.ErrInsecureURL, errors.New("unknown kind")}
	errs := []error{errors.New(attack), &keyring.Error{Kind: keyring.ErrUnavailable, Cause: attack}, &keyring.Error{Kind: keyring.ErrNotFound, Host: attack}}
	for _, k := range kinds {
		errs = append(errs, &apiclient.APIError{Method: "GET", Path: "/api/v4/" + attack, StatusCode: 502, Kind: k, Message: attack})
	}
	for _, err := range errs {
		got := Error(err, Context{Host: attack, Retry: attack, Login: attack, TokenEnv: attack})
		for _, bad := range []string{"\x1b", "\x07", "\u202e", "\u009b", "\u200b"} {
			if strings.Contains(got, bad) {
				t.Fatalf("Error(%v) = %q holds %q", err, got, bad)
			}
		}
	}
}

// With the token in GITLAB_TOKEN, logging in changes nothing: the words say
// to change the variable.
func TestTokenFromEnvironment(t *testing.T) {
	c := Context{Host: "https://gitlab.example.com", TokenEnv: "GITLAB_TOKEN"}
	for _, k := range []error{apiclient.ErrUnauthorized, apiclient.ErrTokenExpired, apiclient.ErrTokenRevoked, apiclient.ErrInsufficientScope} {
		got := Error(&apiclient.APIError{StatusCode: 401, Kind: k}, c)
		if !strings.Contains(got, "GITLAB_TOKEN") || strings.Contains(got, "errtrack login") {
			t.Errorf("%v: %q", k, got)
		}
	}
}

// nested reports parentheses inside parentheses, which read badly.
func nested(s string) bool {
	depth := 0
	for _, r := range s {
		switch r {
		case '(':
			depth++
			if depth > 1 {
				return true
			}
		case ')':
			depth--
		}
	}
	return false
}

// A keyring's cause with parentheses of its own is not put inside more.
func TestKeyringWordsDoNotNest(t *testing.T) {
	err := &keyerr.Error{Op: "get", Host: "https://gitlab.example.com", Kind: keyerr.ErrUnavailable,
		Cause: "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus)"}
	s := Error(err, Context{Retry: "run the command again", Login: "run errtrack login"})
	if nested(s) {
		t.Fatalf("nested parentheses: %q", s)
	}
}
