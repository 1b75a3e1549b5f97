package tokens_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/tokens"
)

// An answer whose token is the current one (or empty) rotated nothing:
// the stored token stays, and the words say so.
func TestRotateTokenAnswerWithoutNewToken(t *testing.T) {
	for _, answer := range []string{"current-token", "", "[redacted]"} {
		store := flowtest.MemStore{}
		_, err := tokens.RotateToken(context.Background(), sameToken(answer), store, "https://h", "current-token", 30, time.Now())
		var nr *tokens.NotRotatedError
		if !errors.As(err, &nr) || store["https://h"] != "current-token" {
			t.Fatalf("%q: %v, stored %q", answer, err, store["https://h"])
		}
		if s := tokens.RotateTokenFailure(err, func(e error) string { return e.Error() }, "check with 'errtrack status'", "log in"); !strings.Contains(s, "The stored token is unchanged") {
			t.Fatal(s)
		}
	}
}

type sameToken string

func (s sameToken) RotateToken(context.Context, time.Time) (*apiclient.RotatedToken, *apiclient.Response, error) {
	return &apiclient.RotatedToken{Token: string(s)}, nil, nil
}
