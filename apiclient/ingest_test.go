package apiclient

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// A test event: accepted for a live key, refused for a deleted one; the
// access token never goes with it.
func TestSendTestEvent(t *testing.T) {
	ctx := context.Background()
	var seen []Exchange
	c, s := againstMock(t, mockserver.Options{}, mockserver.TokenMaintainer, WithObserver(func(e Exchange) { seen = append(seen, e) }))
	keys := s.Keys(1)
	k, _, err := c.ListClientKeys(ctx, ProjectID(1))
	if err != nil {
		t.Fatal(err)
	}
	check, err := c.SendTestEvent(ctx, k[0].DSN, "errtrack test")
	if err != nil || !check.Accepted || check.StatusCode != 200 || s.Envelopes(1) != 1 {
		t.Fatalf("%+v %v", check, err)
	}
	if _, _, err := c.DeleteClientKey(ctx, ProjectID(1), keys[1].ID); err != nil {
		t.Fatal(err)
	}
	check, err = c.SendTestEvent(ctx, k[1].DSN, "errtrack test")
	if err != nil || check.Accepted || check.StatusCode != 401 {
		t.Fatalf("deleted key: %+v %v", check, err)
	}
	last := seen[len(seen)-1]
	if last.RequestHeader.Get("PRIVATE-TOKEN") != "" || !strings.Contains(last.RequestHeader.Get("X-Sentry-Auth"), "sentry_key="+keys[1].PublicKey) {
		t.Fatalf("headers %v", last.RequestHeader)
	}
	if curl := last.Curl(); strings.Contains(curl, "PRIVATE-TOKEN") || !strings.Contains(curl, "/errortracking/api/v1/projects/api/1/envelope") {
		t.Fatalf("curl %s", curl)
	}
	if _, err := c.SendTestEvent(ctx, "not a dsn", "x"); !errors.Is(err, ErrValidation) {
		t.Fatal(err)
	}
}
