package audit

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
)

// doctor --send-test-event: a rate-limited event is a warning that names
// the limit and the wait, and advises no fix of the key.
func TestDoctorRateLimitedTestEvent(t *testing.T) {
	srv, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/envelope/") {
			w.Header().Set("Retry-After", "60")
			w.Header().Set("X-Sentry-Rate-Limits", "60:default;error;security:organization:org_quota")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	c, err := apiclient.New(ts.URL, mockserver.TokenMaintainer, apiclienttest.WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	checks := Doctor(context.Background(), c, apiclient.ProjectID(1), DoctorOptions{SendTestEvent: true}, flowtest.ExplainPlain, time.Now())
	var seen bool
	for _, ch := range checks {
		if !strings.HasPrefix(ch.Name, "ingestion") {
			continue
		}
		seen = true
		if ch.Status != CheckWarn || !strings.Contains(ch.Detail, "rate-limited the test event (HTTP 429, limit: organization org_quota); try again in 1m0s") ||
			strings.Contains(ch.Fix, "inactive or deleted") {
			t.Errorf("%+v", ch)
		}
	}
	if !seen {
		t.Fatalf("no ingestion check: %+v", checks)
	}
}
