package explain

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/keyring"
)

func TestEveryClassSaysWhatToDo(t *testing.T) {
	c := Context{Host: "https://gitlab.example.com", Retry: "press r to retry"}
	cases := []struct {
		err  error
		want string
	}{
		{&apiclient.APIError{StatusCode: 401, Kind: apiclient.ErrTokenExpired}, "errtrack login --host https://gitlab.example.com"},
		{&apiclient.APIError{StatusCode: 401, Kind: apiclient.ErrTokenRevoked}, "revoked"},
		{&apiclient.APIError{StatusCode: 401, Kind: apiclient.ErrUnauthorized}, "with a valid token"},
		{&apiclient.APIError{StatusCode: 403, Kind: apiclient.ErrInsufficientScope}, "api scope"},
		{&apiclient.APIError{StatusCode: 403, Kind: apiclient.ErrForbidden}, "Maintainer role"},
		{&apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrProjectNotFound}, "Check the project path"},
		{&apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrSettingsNotFound}, "Create the settings first"},
		{&apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrIntegratedUnavailable}, "not available on this GitLab instance"},
		{&apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrKeyNotFound}, "already gone"},
		{&apiclient.APIError{StatusCode: 429, Kind: apiclient.ErrRateLimited, RetryAfter: 1500 * time.Millisecond}, "Wait 2 s, then press r to retry"},
		{&apiclient.APIError{StatusCode: 502, Kind: apiclient.ErrServer}, "HTTP 502"},
		{&apiclient.APIError{Kind: apiclient.ErrServer, Message: "could not reach the server: connection refused"}, "Check your network"},
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
