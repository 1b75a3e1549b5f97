// Package tokens checks, logs in with and rotates a GitLab token, the same way
// from the console and the commands.
package tokens

import (
	"context"
	"fmt"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/fanout"
)

// WarnDays is how close to its expiry a token is flagged.
const WarnDays = 7

// TokenStatus is what the server says about a token.
type TokenStatus struct {
	User *apiclient.User
	// Token is nil when the server cannot describe this kind of token (an
	// OAuth token, or GitLab before 15.5).
	Token *apiclient.TokenInfo
	// Version is the server's release, nil when it did not say.
	Version *apiclient.ServerVersion
}

// CheckToken asks who the token belongs to, what it may do and which
// release the server runs, all at once: one round trip. Only the user
// lookup must succeed; a token the server cannot describe leaves Token nil.
func CheckToken(ctx context.Context, api TokenAPI) (TokenStatus, error) {
	var st TokenStatus
	err := fanout.Together(func() (err error) {
		st.User, _, err = api.CurrentUser(ctx)
		return err
	}, func() {
		if t, _, err := api.TokenInfo(ctx); err == nil {
			st.Token = t
		}
	}, func() {
		if v, err := api.ServerVersion(ctx); err == nil {
			st.Version = v
		}
	})
	if err != nil {
		return TokenStatus{}, err
	}
	return st, nil
}

// DaysLeft counts the days from now to the token's expiry date. GitLab
// stops accepting a token at 00:00 UTC on its expires_at date, so both are
// taken as UTC dates: the console and the commands, wherever they run,
// give the same count at the same instant. ok is false for a token that
// never expires or whose expiry is unknown.
func (s TokenStatus) DaysLeft(now time.Time) (days int, ok bool) {
	if s.Token == nil {
		return 0, false
	}
	exp, ok := s.Token.Expiry()
	if !ok {
		return 0, false
	}
	u := now.UTC()
	today := time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)
	return int(exp.Sub(today).Hours() / 24), true
}

// ExpiresSoon reports a token within WarnDays of its expiry.
func (s TokenStatus) ExpiresSoon(now time.Time) bool {
	d, ok := s.DaysLeft(now)
	return ok && d <= WarnDays
}

// Expiry words the token's expiry: "expires in 3 days", "expires
// tomorrow", "has expired", "never expires", or "" when it is unknown.
func (s TokenStatus) Expiry(now time.Time) string {
	if s.Token == nil {
		return ""
	}
	d, ok := s.DaysLeft(now)
	switch {
	case !ok:
		return "never expires"
	case d <= 0:
		return "has expired"
	case d == 1:
		return "expires tomorrow"
	}
	return fmt.Sprintf("expires in %d days", d)
}

// ExpiryAdvice says what to do about a token that expires soon, for
// wherever it comes from: rotatable (the keyring's token, still valid) is
// rotated; one from the environment variable env is replaced there; else
// a new one is logged in. "" when the token does not expire soon.
func (s TokenStatus) ExpiryAdvice(now time.Time, rotatable bool, env string) string {
	switch {
	case !s.ExpiresSoon(now):
		return ""
	case rotatable && s.Expiry(now) != "has expired":
		return "rotate it: errtrack auth rotate"
	case env != "":
		return "create a new token and set " + env + " to it"
	}
	return "create a new token and log in again"
}

// ReadOnly reports a token known to lack the api scope: it can read settings
// and keys but change nothing.
func (s TokenStatus) ReadOnly() bool {
	return s.Token != nil && !s.Token.HasScope("api")
}

// TokenAPI is what checking a token needs.
type TokenAPI interface {
	CurrentUser(ctx context.Context) (*apiclient.User, *apiclient.Response, error)
	TokenInfo(ctx context.Context) (*apiclient.TokenInfo, *apiclient.Response, error)
	ServerVersion(ctx context.Context) (*apiclient.ServerVersion, error)
}
