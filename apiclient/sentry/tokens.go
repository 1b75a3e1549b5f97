package sentry

import (
	"context"
	"errors"
	"fmt"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/keyring/keyerr"
)

// Where a Sentry token came from, as status reports it.
const (
	SourceEnv     = "environment (SENTRY_AUTH_TOKEN)"
	SourceKeyring = "system keyring"
)

// TokenStore keeps Sentry tokens by Sentry base URL (the keyring's Sentry
// entries); a missing one is keyerr.ErrNotFound.
type TokenStore interface {
	Get(ctx context.Context, base string) (string, error)
}

// Tokens says which token, if any, belongs to a Sentry host. The
// environment's token (SENTRY_AUTH_TOKEN, as sentry-cli users have it)
// belongs to SENTRY_URL's host only, https://sentry.io when SENTRY_URL is
// unset; the keyring holds one per host. A token is only ever given for
// the host it was stored or set for.
type Tokens struct {
	EnvToken string // SENTRY_AUTH_TOKEN
	EnvURL   string // SENTRY_URL; DefaultURL when empty
	Store    TokenStore
}

// TokenError is the want of a token for a host.
type TokenError struct {
	Base string
	// EnvBase is the host SENTRY_AUTH_TOKEN is for, when it is set for
	// another host than Base.
	EnvBase string
	// Err is the store's failure other than "none stored" (a keyring that
	// is locked or absent), nil otherwise.
	Err error
}

func (e *TokenError) Error() string {
	msg := "no Sentry token for " + e.Base
	if e.EnvBase != "" {
		msg += fmt.Sprintf(" (SENTRY_AUTH_TOKEN is for %s)", e.EnvBase)
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *TokenError) Is(target error) bool { return target == ErrNoToken }
func (e *TokenError) Unwrap() error        { return e.Err }

// For returns the token for the Sentry at base and where it came from.
func (t Tokens) For(ctx context.Context, base string) (token, source string, err error) {
	b, err := NormalizeBase(base)
	if err != nil {
		return "", "", err
	}
	envBase := ""
	if t.EnvToken != "" {
		raw := t.EnvURL
		if raw == "" {
			raw = DefaultURL
		}
		if envBase, err = NormalizeBase(raw); err != nil {
			return "", "", fmt.Errorf("SENTRY_URL: %w", err)
		}
		if envBase == b {
			return t.EnvToken, SourceEnv, nil
		}
	}
	if t.Store != nil {
		tok, err := t.Store.Get(ctx, b)
		switch {
		case err == nil && tok != "":
			return tok, SourceKeyring, nil
		case err != nil && !errors.Is(err, keyerr.ErrNotFound):
			return "", "", &TokenError{Base: b, EnvBase: envBase, Err: err}
		}
	}
	return "", "", &TokenError{Base: b, EnvBase: envBase}
}

// ClientFor is the client for the Sentry project a GitLab project's
// settings name (their api_url): bound to that api_url's host, with the
// token for that host and no other. A bad api_url is ErrBadAPIURL, a host
// without a token ErrNoToken; nothing is sent in either case.
func ClientFor(ctx context.Context, t Tokens, apiURL string, opts ...apiclient.Option) (*Client, Project, string, error) {
	p, err := ParseAPIURL(apiURL)
	if err != nil {
		return nil, Project{}, "", err
	}
	token, source, err := t.For(ctx, p.Base)
	if err != nil {
		return nil, p, "", err
	}
	c, err := New(p.Base, token, opts...)
	if err != nil {
		return nil, p, "", err
	}
	return c, p, source, nil
}
