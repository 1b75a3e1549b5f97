package rotation

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/flowtest"
	"github.com/errtrack/errtrack/internal/projectscope"
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

type brokenStore struct{}

func (brokenStore) Set(context.Context, string, string) error { return errors.New("locked") }

func TestLogin(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	store := flowtest.MemStore{}
	st, err := tokens.Login(context.Background(), c, store, "https://h", mockserver.TokenMaintainer)
	if err != nil || st.User == nil || store["https://h"] != mockserver.TokenMaintainer {
		t.Fatal(st, err, store)
	}
	_, bad := flowtest.Mock(t, mockserver.Options{}, "wrong")
	store = flowtest.MemStore{}
	if _, err := tokens.Login(context.Background(), bad, store, "https://h", "wrong"); !errors.Is(err, apiclient.ErrUnauthorized) || len(store) != 0 {
		t.Fatalf("refused token: %v, stored %v", err, store)
	}
	var ns *tokens.NotStoredError
	if _, err := tokens.Login(context.Background(), c, brokenStore{}, "https://h", "x"); !errors.As(err, &ns) {
		t.Fatalf("err = %v", err)
	}
}

func TestResolveProject(t *testing.T) {
	_, c := flowtest.Mock(t, mockserver.Options{}, mockserver.TokenMaintainer)
	p, err := projectscope.ResolveProject(context.Background(), c, apiclient.ProjectID(3))
	if err != nil || p.Path != "demo/legacy-api" || p.ID != 3 || p.Name() != "demo/legacy-api" {
		t.Fatal(p, err)
	}
	ref, _ := apiclient.ParseProjectRef("demo/paused")
	if p, _ := projectscope.ResolveProject(context.Background(), c, ref); p.ID != 5 {
		t.Fatal(p)
	}
	if _, err := projectscope.ResolveProject(context.Background(), c, apiclient.ProjectID(6)); !errors.Is(err, apiclient.ErrProjectNotFound) {
		t.Fatalf("err = %v", err)
	}
}

func TestRotationSteps(t *testing.T) {
	srv, c := flowtest.MockOwner(t, mockserver.Options{}, mockserver.TokenMaintainer)
	ctx := context.Background()
	plan := func(ref int64, old int64) (Rotation, error) {
		return NewRotation(apiclient.ProjectID(ref), RotationOptions{OldID: old}).Run(ctx, c, StepPlan)
	}
	if _, err := plan(1, 0); !strings.Contains(errString(err), "has 2 client keys") {
		t.Fatalf("err = %v", err)
	}
	if _, err := plan(1, 99); !strings.Contains(errString(err), "no client key 99") {
		t.Fatalf("err = %v", err)
	}
	r, err := plan(5, 0)
	if err != nil || r.Old.ID != 3 || r.Project.Path != "demo/paused" || r.Next() != StepCreate {
		t.Fatal(r, err)
	}
	if !strings.Contains(r.State(Checks{}), "untouched") {
		t.Fatal(r.State(Checks{}))
	}
	if r, err = r.Run(ctx, c, StepCreate); err != nil || r.New == nil {
		t.Fatal(r, err)
	}
	if r, err = r.Run(ctx, c, StepCheck); err != nil || !r.Listed || r.Next() != StepConfirmDelete {
		t.Fatal(r, err)
	}
	r = r.ConfirmDelete(true)
	if r, err = r.Run(ctx, c, StepDelete); err != nil || !r.Deleted || r.OldGone || r.Next() != StepDone {
		t.Fatal(r, err)
	}
	if !strings.Contains(r.State(Checks{}), "which is deleted") {
		t.Fatal(r.State(Checks{}))
	}
	if keys := srv.Keys(5); len(keys) != 1 || keys[0].ID != r.New.ID {
		t.Fatalf("keys %v", keys)
	}
	// The old key deleted elsewhere in between is still a rotation done.
	r2, _ := NewRotation(apiclient.ProjectID(5), RotationOptions{Confirmed: true}).Run(ctx, c, StepPlan)
	r2, _ = r2.Run(ctx, c, StepCreate)
	r2, _ = r2.Run(ctx, c, StepCheck)
	c.DeleteClientKey(ctx, apiclient.ProjectID(5), r2.Old.ID)
	if r2, err = r2.Run(ctx, c, StepDelete); err != nil || !r2.OldGone || !strings.Contains(r2.State(Checks{}), "already gone") {
		t.Fatal(r2, err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
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

// A project record without an ID (a proxy that trims fields) keeps the ID
// the user gave.
func TestResolveProjectKeepsGivenID(t *testing.T) {
	p, err := projectscope.ResolveProject(context.Background(), bareProject{}, apiclient.ProjectID(5))
	if err != nil || p.ID != 5 || p.Path != "" {
		t.Fatalf("%+v %v", p, err)
	}
}

type bareProject struct{}

func (bareProject) GetProject(context.Context, apiclient.ProjectRef) (*apiclient.Project, *apiclient.Response, error) {
	return &apiclient.Project{}, nil, nil
}

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
