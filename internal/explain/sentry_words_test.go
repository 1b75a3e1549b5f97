package explain

import (
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
)

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
