package tokens_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/tokens"
)

func TestCheckToken(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenExpiring)
	st, err := tokens.CheckToken(context.Background(), c)
	if err != nil || st.User.Username != "demo-maintainer" || st.Token == nil || st.ReadOnly() {
		t.Fatalf("%+v %v", st, err)
	}
	if !st.ExpiresSoon(time.Now()) || st.Expiry(time.Now()) != "expires in 3 days" {
		t.Fatalf("expiry %q", st.Expiry(time.Now()))
	}
	_, c = flowtest.Mock(t, mockserver.Options{}, mockserver.TokenReadOnly)
	if st, _ := tokens.CheckToken(context.Background(), c); !st.ReadOnly() {
		t.Fatal("read_api token not read-only")
	}
	_, c = flowtest.Mock(t, mockserver.Options{}, mockserver.TokenRevoked)
	if _, err := tokens.CheckToken(context.Background(), c); !errors.Is(err, apiclient.ErrTokenRevoked) {
		t.Fatalf("err = %v", err)
	}
}

// GitLab stops a token at 00:00 UTC on its expiry date: the day count is
// taken on UTC dates, so it is the same wherever and whenever it is asked
// within one UTC day, including local times on either side of midnight.
func TestDaysLeftIsOneRule(t *testing.T) {
	st := tokens.TokenStatus{Token: &apiclient.TokenInfo{ExpiresAt: "2026-11-25"}}
	east := time.FixedZone("UTC+9", 9*3600)
	west := time.FixedZone("UTC-8", -8*3600)
	for _, now := range []time.Time{
		time.Date(2026, 11, 22, 0, 0, 1, 0, time.UTC),
		time.Date(2026, 11, 22, 23, 59, 59, 0, time.UTC),
		time.Date(2026, 11, 23, 8, 30, 0, 0, east),  // 22 Nov 23:30 UTC, already the 23rd locally
		time.Date(2026, 11, 21, 16, 30, 0, 0, west), // 22 Nov 00:30 UTC, still the 21st locally
	} {
		if d, ok := st.DaysLeft(now); !ok || d != 3 {
			t.Errorf("DaysLeft(%v) = %d, %v; want 3", now, d, ok)
		}
	}
	for days, want := range map[int]string{-1: "has expired", 0: "has expired", 1: "expires tomorrow", 2: "expires in 2 days"} {
		now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC).AddDate(0, 0, -days)
		if got := st.Expiry(now); got != want {
			t.Errorf("%d days: %q, want %q", days, got, want)
		}
	}
	if (tokens.TokenStatus{Token: &apiclient.TokenInfo{}}).Expiry(time.Now()) != "never expires" {
		t.Error("a token without expiry")
	}
}

// The warning starts exactly WarnDays before the expiry date.
func TestExpiresSoonBoundary(t *testing.T) {
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	at := func(days int) tokens.TokenStatus {
		return tokens.TokenStatus{Token: &apiclient.TokenInfo{ExpiresAt: now.AddDate(0, 0, days).Format("2006-01-02")}}
	}
	if !at(tokens.WarnDays).ExpiresSoon(now) || at(tokens.WarnDays+1).ExpiresSoon(now) {
		t.Fatal("boundary")
	}
}

// A server whose release cannot be read leaves Version nil; the user lookup
// alone decides.
func TestCheckTokenWithoutVersion(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	st, err := tokens.CheckToken(context.Background(), noVersion{c})
	if err != nil || st.Version != nil || st.User == nil {
		t.Fatalf("%+v %v", st, err)
	}
}

type noVersion struct{ *apiclient.Client }

func (noVersion) ServerVersion(context.Context) (*apiclient.ServerVersion, error) {
	return &apiclient.ServerVersion{}, errors.New("no version")
}
