package tui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/tokens"
)

// tokenStore is a keyring for the console's token rotation; fail fails the
// Set calls it returns true for (1 is the first).
type tokenStore struct {
	tokens map[string]string
	sets   int
	fail   func(n int) bool
}

func (s *tokenStore) Set(_ context.Context, host, token string) error {
	s.sets++
	if s.fail != nil && s.fail(s.sets) {
		return errors.New("the keyring is locked")
	}
	s.tokens[host] = token
	return nil
}

// rotatingConsole is a console on an expiring token that the mock server
// can rotate, storing the new one in store.
func rotatingConsole(t *testing.T, store *tokenStore) (*harness, gitlab) {
	g := newGitLab(t, mockserver.Options{}, mockserver.TokenExpiring)
	rotate := func(ctx context.Context, host string) (API, *apiclient.RotatedToken, error) {
		current := mockserver.TokenExpiring
		if tok, ok := store.tokens[host]; ok {
			current = tok
		}
		c, _ := apiclient.New(g.url, current, apiclienttest.WithRetries(0, 0))
		rt, err := tokens.RotateToken(ctx, c, store, host, current, tokens.DefaultTokenDays, time.Now())
		if err != nil {
			return nil, nil, err
		}
		next, err := apiclient.New(g.url, rt.Token, apiclienttest.WithRetries(0, 0))
		return next, rt, err
	}
	return newHarness(t, Deps{API: g.api, Host: g.url, Project: "1", RotateToken: rotate}), g
}

// The expiry warning offers ctrl+t; a rotation switches the console to the
// new token, which is stored, and the warning goes.
func TestTokenRotationFromTheWarning(t *testing.T) {
	store := &tokenStore{tokens: map[string]string{}}
	h, g := rotatingConsole(t, store)
	h.mustSee("⚠ token expires in 3 days · ctrl+t rotate")
	h.key("ctrl+t")
	h.mustSay("Rotate your access token?", "revokes this one at once")
	h.key("y")
	h.mustSay("Rotated the token for "+g.url, "old one is revoked", "expires in 30 days")
	if tok := store.tokens[g.url]; tok == "" || tok == mockserver.TokenExpiring {
		t.Fatalf("stored %q", tok)
	}
	if old, _ := g.srv.Token(mockserver.TokenExpiring); !old.Revoked {
		t.Fatal("old token not revoked")
	}
	if v := h.view(); strings.Contains(v, "⚠ token") {
		t.Fatalf("warning still shown:\n%s", v)
	}
	h.key("r") // the console goes on with the new token
	h.mustSee("Client keys (2)")
}

// The keyring refusing the current token stops the rotation before it
// starts; refusing the new one sends the user to log in, saying why.
func TestTokenRotationKeyringFailures(t *testing.T) {
	store := &tokenStore{tokens: map[string]string{}, fail: func(int) bool { return true }}
	h, g := rotatingConsole(t, store)
	h.key("ctrl+t", "y")
	h.mustSay("The token was not rotated, because the keyring cannot store a new one")
	if old, _ := g.srv.Token(mockserver.TokenExpiring); old.Revoked {
		t.Fatal("rotated anyway")
	}
	store.sets, store.fail = 0, func(n int) bool { return n == 2 }
	h.key("ctrl+t", "y")
	h.mustSay("GitLab rotated the token, so the old one is revoked, but the keyring did not take the new one", "log in again")
}

// A token from an environment variable is not rotated here.
func TestTokenRotationRefusedForEnvToken(t *testing.T) {
	g := newGitLab(t, mockserver.Options{}, mockserver.TokenExpiring)
	h := newHarness(t, Deps{API: g.api, Host: g.url, TokenEnv: "GITLAB_TOKEN"})
	h.mustSee("⚠ token expires in 3 days")
	h.key("ctrl+t")
	h.mustSay("The token comes from GITLAB_TOKEN")
}
