package apiclient

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// The CI/CD variables a rotation touches, against the mock server's §13.
func TestVariables(t *testing.T) {
	ctx := context.Background()
	c, s := againstMock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	keys, _, err := c.ListClientKeys(ctx, ProjectID(1))
	if err != nil {
		t.Fatal(err)
	}
	vars, _, err := c.ListVariables(ctx, ProjectID(1))
	if err != nil || len(vars) != 1 || vars[0].Key != "SENTRY_DSN" || vars[0].Value == nil || *vars[0].Value != keys[0].DSN {
		t.Fatalf("%+v %v", vars, err)
	}
	p, _ := ParseProjectRef("demo/web-shop")
	if _, _, err := c.CreateVariable(ctx, p, NewVariable{Key: "SENTRY_DSN", Value: keys[1].DSN, Masked: true, Raw: true, EnvironmentScope: "production"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.GetVariable(ctx, p, "SENTRY_DSN", ""); !errors.Is(err, ErrVariableAmbiguous) {
		t.Fatalf("two scopes without a filter: %v", err)
	}
	v, _, err := c.UpdateVariableValue(ctx, p, "SENTRY_DSN", "production", keys[0].DSN)
	if err != nil || !v.Masked || !v.Raw || v.Protected || v.EnvironmentScope != "production" || *v.Value != keys[0].DSN {
		t.Fatalf("%+v %v", v, err)
	}
	if _, _, err := c.GetVariable(ctx, p, "NOPE", ""); !errors.Is(err, ErrVariableNotFound) || !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing variable: %v", err)
	}
	if n := len(s.Variables(1)); n != 2 {
		t.Fatalf("%d variables", n)
	}
}

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

// Rotating the token: the new one works, the old one is revoked, and the new
// value is never observed.
func TestRotateToken(t *testing.T) {
	ctx := context.Background()
	var seen []Exchange
	c, s := againstMock(t, mockserver.Options{}, mockserver.TokenMaintainer, WithObserver(func(e Exchange) { seen = append(seen, e) }))
	exp := time.Now().AddDate(0, 0, 30)
	rt, _, err := c.RotateToken(ctx, exp)
	if err != nil || rt.Token == "" || rt.ExpiresAt != exp.Format(time.DateOnly) || !rt.HasScope("api") {
		t.Fatalf("%+v %v", rt, err)
	}
	for _, e := range seen {
		if strings.Contains(string(e.ResponseBody), rt.Token) {
			t.Fatal("the new token reached the observer")
		}
	}
	if _, _, err := c.CurrentUser(ctx); !errors.Is(err, ErrTokenRevoked) {
		t.Fatalf("old token after rotation: %v", err)
	}
	if tok, ok := s.Token(rt.Token); !ok || tok.Revoked {
		t.Fatalf("new token %+v", tok)
	}
}

// A rotation whose answer is lost is not sent again: the server would
// revoke the new token too.
func TestRotateTokenNeverRetried(t *testing.T) {
	var n atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		jsonReply(w, 502, `{"message":"502 Bad Gateway"}`)
	})
	if _, _, err := c.RotateToken(context.Background(), time.Now().AddDate(0, 0, 7)); !OutcomeUnknown(err) {
		t.Fatal(err)
	}
	if n.Load() != 1 {
		t.Fatalf("sent %d times", n.Load())
	}
	c2 := setup(t, func(w http.ResponseWriter, r *http.Request) {
		jsonReply(w, 200, `{"id":1,"scopes":["api"],"expires_at":"2027-01-01"}`)
	})
	if _, _, err := c2.RotateToken(context.Background(), time.Now()); !errors.Is(err, ErrBadResponse) {
		t.Fatalf("no token in the answer: %v", err)
	}
}
