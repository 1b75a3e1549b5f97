package tui

import (
	"net/http"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
)

// Copy as curl says which variable the command reads the token from: a
// Sentry request's is $SENTRY_AUTH_TOKEN, not $GITLAB_TOKEN; a request
// with no token names none.
func TestCopyCurlNamesItsTokenVariable(t *testing.T) {
	sh := &shared{}
	for _, tc := range []struct {
		header, variable, want, not string
	}{
		{"Authorization", "SENTRY_AUTH_TOKEN", "$SENTRY_AUTH_TOKEN", "GITLAB_TOKEN"},
		{"PRIVATE-TOKEN", "", "$GITLAB_TOKEN", "SENTRY"},
		{"", "", "curl command", "token"},
	} {
		e := apiclient.Exchange{Method: "GET", URL: "https://sentry.example.com/api/0/projects/o/p/keys/", RequestHeader: http.Header{}, TokenVariable: tc.variable}
		switch tc.header {
		case "Authorization":
			e.RequestHeader.Set("Authorization", "Bearer [redacted]")
		case "PRIVATE-TOKEN":
			e.RequestHeader.Set("PRIVATE-TOKEN", "[redacted]")
		}
		msg, ok := copyCurl(sh, e)().(osc52Msg)
		if !ok {
			t.Fatalf("%+v: not a copy", tc)
		}
		if !strings.Contains(msg.what, tc.want) || strings.Contains(msg.what, tc.not) {
			t.Errorf("%s token: the status says %q", tc.header, msg.what)
		}
		if !strings.Contains(msg.text, strings.TrimPrefix(tc.want, "curl command")) {
			t.Errorf("the command %q does not read %s", msg.text, tc.want)
		}
	}
}
