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
