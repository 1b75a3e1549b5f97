package tokens

import (
	"context"
	"fmt"
)

// TokenStore keeps a token per host.
type TokenStore interface {
	Set(ctx context.Context, host, token string) error
}

// NotStoredError: the server accepted the token but the keyring did not
// take it.
type NotStoredError struct{ Err error }

func (e *NotStoredError) Error() string {
	return fmt.Sprintf("the token is valid but could not be stored: %v", e.Err)
}

func (e *NotStoredError) Unwrap() error { return e.Err }

// Login checks the token with the server (one round trip), then stores it
// for host. A token the server refuses is never stored.
func Login(ctx context.Context, api TokenAPI, store TokenStore, host, token string) (TokenStatus, error) {
	st, err := CheckToken(ctx, api)
	if err != nil {
		return TokenStatus{}, err
	}
	if err := store.Set(ctx, host, token); err != nil {
		return st, &NotStoredError{err}
	}
	return st, nil
}

// TokenPage is where a user creates a token for errtrack on host: GitLab's
// form with the token's name and its api scope filled in. Both front ends
// link it.
func TokenPage(host string) string {
	return host + "/-/user_settings/personal_access_tokens?name=errtrack&scopes=api"
}
