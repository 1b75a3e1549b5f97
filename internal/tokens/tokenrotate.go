package tokens

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/errtrack/errtrack/apiclient"
)

// TokenRotateAPI is what rotating the access token needs.
type TokenRotateAPI interface {
	RotateToken(ctx context.Context, expiresAt time.Time) (*apiclient.RotatedToken, *apiclient.Response, error)
}

// Lifetimes of a rotated token: the default errtrack asks for, and the
// longest GitLab allows by default.
const (
	DefaultTokenDays = 30
	MaxTokenDays     = 365
)

// ParseLifetime reads a token lifetime: "30d", "4w" or a number of days.
func ParseLifetime(s string) (days int, err error) {
	s = strings.TrimSpace(strings.ToLower(s))
	mult := 1
	switch {
	case strings.HasSuffix(s, "d"):
		s = strings.TrimSuffix(s, "d")
	case strings.HasSuffix(s, "w"):
		s, mult = strings.TrimSuffix(s, "w"), 7
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 || n*mult > MaxTokenDays {
		return 0, fmt.Errorf("a lifetime is a number of days or weeks, 1d to %dd (e.g. 30d or 4w)", MaxTokenDays)
	}
	return n * mult, nil
}

// StoreUnavailableError: the keyring did not take the current token back,
// so the rotation was not started: nothing changed.
type StoreUnavailableError struct{ Err error }

func (e *StoreUnavailableError) Error() string {
	return fmt.Sprintf("the token store cannot be written: %v", e.Err)
}

func (e *StoreUnavailableError) Unwrap() error { return e.Err }

// NotRotatedError: the server's answer holds no new token.
type NotRotatedError struct{}

func (e *NotRotatedError) Error() string {
	return "the server's answer holds no new token (it is empty or the current one)"
}

// LostTokenError: GitLab rotated the token, so the old one is revoked, but
// the new one could not be stored.
type LostTokenError struct{ Err error }

func (e *LostTokenError) Error() string {
	return fmt.Sprintf("the token was rotated, but the new token could not be stored: %v", e.Err)
}

func (e *LostTokenError) Unwrap() error { return e.Err }

// RotateToken replaces the stored token of host with a new one valid for
// days (from today, UTC). The store is tried first by writing the current
// token back, since once GitLab answers, the old token is revoked and the
// new one exists only in that answer. The new token is stored before
// anything else happens; the rotation is never retried, as GitLab revokes
// the new token too when the old one is used again.
func RotateToken(ctx context.Context, api TokenRotateAPI, store TokenStore, host, current string, days int, now time.Time) (*apiclient.RotatedToken, error) {
	if err := store.Set(ctx, host, current); err != nil {
		return nil, &StoreUnavailableError{err}
	}
	u := now.UTC()
	expires := time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC).AddDate(0, 0, days)
	t, _, err := api.RotateToken(ctx, expires)
	if err != nil {
		return nil, err
	}
	// An answer without a new token (empty, the current one, a proxy's
	// replay) is nothing to store: the stored token stays as it is.
	if t.Token == "" || t.Token == current || t.Token == "[redacted]" {
		return nil, &NotRotatedError{}
	}
	// The answer is in hand: storing it must not fail because the caller's
	// deadline ran out a moment later.
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := store.Set(sctx, host, t.Token); err != nil {
		return t, &LostTokenError{err}
	}
	return t, nil
}

// RotateOutcomeUnknown words a rotation whose answer was lost: the old token
// may already be revoked, and trying again would revoke the new one too.
// check says how to look from where the user is.
func RotateOutcomeUnknown(err error, check string) (string, bool) {
	if !apiclient.OutcomeUnknown(err) {
		return "", false
	}
	return "The token may have been rotated anyway, and then the stored one is revoked: " + check + ". " +
		"Do not try again with the same token (GitLab would revoke the new one too); if it is refused, create a new token in GitLab (User settings > Access tokens) and log in again.", true
}

// RotateTokenFailure words a failed token rotation for either front end:
// explain words an API or keyring error, check says how to look at the
// token, and login how to log in again.
func RotateTokenFailure(err error, explain func(error) string, check, login string) string {
	var unavailable *StoreUnavailableError
	var lost *LostTokenError
	var notRotated *NotRotatedError
	switch {
	case errors.As(err, &notRotated):
		return "The token was not rotated: " + notRotated.Error() + ". The stored token is unchanged; " + check + "."
	case errors.As(err, &unavailable):
		return "The token was not rotated, because the keyring cannot store a new one: " + explain(unavailable.Err)
	case errors.As(err, &lost):
		return "GitLab rotated the token, so the old one is revoked, but the keyring did not take the new one. " +
			strings.TrimSuffix(explain(lost.Err), ".") + ". Create a new token in GitLab (User settings > Access tokens) and " + login + "."
	}
	if words, ok := RotateOutcomeUnknown(err, check); ok {
		return explain(err) + " " + words
	}
	return "The token was not rotated: " + explain(err)
}

// RotateTokenQuestion is what the user reads before a token rotation: the
// new token's lifetime against what is left of the current one, and where
// the new one goes. st is the current token's status (its expiry may be
// unknown); store names the keyring.
func RotateTokenQuestion(st TokenStatus, days int, store string, now time.Time) []string {
	until := now.AddDate(0, 0, days).Format(time.DateOnly)
	lines := []string{fmt.Sprintf("GitLab issues a new token with the same scopes, valid for %d days (until %s), and revokes this one at once.", days, until)}
	if st.Token != nil {
		if exp, ok := st.Token.Expiry(); ok {
			lines = append(lines, fmt.Sprintf("This one %s (%s).", st.Expiry(now), exp.Format(time.DateOnly)))
		} else {
			lines = append(lines, "This one never expires: the new one will.")
		}
	}
	return append(lines, "errtrack stores the new token in "+store+" before anything else; it is never shown.")
}

// RotatedText tells the user the rotation worked; store names where the new
// token is kept ("the system keyring").
func RotatedText(host, store string, t *apiclient.RotatedToken, now time.Time) string {
	s := "Rotated the token for " + host + ": the new one is stored in " + store + " and the old one is revoked."
	if exp, ok := t.Expiry(); ok {
		s += fmt.Sprintf(" It expires on %s (%s).", exp.Format(time.DateOnly), TokenStatus{Token: &t.TokenInfo}.Expiry(now))
	}
	return s
}
