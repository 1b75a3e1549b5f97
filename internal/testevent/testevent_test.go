package testevent

import (
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
)

// A test event's answer is worded by what it proves: a 429 is a quota or
// rate limit with its wait, never a dead key; a 403 is a refusal; a 2xx is
// "accepted by ingestion", no more.
func TestTestEventWordedByWhatItProves(t *testing.T) {
	limited := &RefusedError{&apiclient.DSNCheck{StatusCode: 429, RetryAfter: 45 * time.Second, Limits: []string{"key key_quota"}}}
	if got := limited.Error(); got != "ingestion rate-limited the test event (HTTP 429, limit: key key_quota); try again in 45s" {
		t.Errorf("429: %q", got)
	}
	if a := limited.Advice(); strings.Contains(a, "inactive or deleted") || !strings.Contains(a, "not refused") {
		t.Errorf("429 advice: %q", a)
	}
	refused := &RefusedError{&apiclient.DSNCheck{StatusCode: 403, Message: `{"detail":"event submission rejected with_reason: ProjectId"}`}}
	if got := refused.Error(); !strings.Contains(got, "refused the test event (HTTP 403: ") || refused.Advice() != RefusedAdvice {
		t.Errorf("403: %q %q", got, refused.Advice())
	}
	// A redirect or a 404 is no ingestion endpoint: not a refusal of the key.
	notTaken := &RefusedError{&apiclient.DSNCheck{StatusCode: 302}}
	if got := notTaken.Error(); got != "the DSN's ingestion endpoint did not take the test event (HTTP 302)" || notTaken.Advice() != NotTakenAdvice {
		t.Errorf("302: %q %q", got, notTaken.Advice())
	}
	for _, tc := range []struct {
		accepted bool
		status   int
		want     string
	}{{true, 200, "accepted by ingestion"}, {false, 429, "rate-limited"}, {false, 403, "refused"}, {false, 401, "refused"}, {false, 404, "not taken"}, {false, 302, "not taken"}} {
		if got := Words(tc.accepted, tc.status); got != tc.want {
			t.Errorf("%v %d: %q", tc.accepted, tc.status, got)
		}
	}
}
