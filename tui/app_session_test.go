package tui

import (
	"context"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/tokens"
)

// A 401 sends the user to the login screen, and a new token carries on.
func TestUnauthorizedGoesToLogin(t *testing.T) {
	g := newGitLab(t, mockserver.Options{}, mockserver.TokenRevoked)
	good := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Login: func(context.Context, string, string) (API, error) { return good.api, nil }})
	h.mustSee("Log in to GitLab", "revoked")
	h.send(tea.PasteMsg{Content: "x"})
	h.key("enter")
	h.mustSee("Projects you maintain", "demo/web-shop")
}

// With the token in GITLAB_TOKEN, logging in would not last: the console
// says to change the variable and does not offer the login screen.
func TestEnvTokenRefused(t *testing.T) {
	g := newGitLab(t, mockserver.Options{}, mockserver.TokenExpired)
	h := newHarness(t, Deps{API: g.api, Host: g.url, TokenEnv: "GITLAB_TOKEN", Login: func(context.Context, string, string) (API, error) { return nil, errors.New("unused") }})
	h.mustSee("GITLAB_TOKEN", "logging in changes nothing")
	h.mustNotSee("Log in to GitLab", "errtrack login")
	// Said once: in the list's pane, not again in the status line.
	if n := h.count("logging in changes nothing"); n != 1 {
		t.Fatalf("the error is shown %d times:\n%s", n, h.view())
	}
}

func TestConnectInsideTheConsole(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{Connect: func(context.Context) (API, error) { return g.api, nil }, Host: g.url, Project: "1", Notice: "config file was unreadable"})
	h.mustSee("Client keys (2)", "@demo-maintainer", "config file was unreadable")

	m := New(Deps{Connect: func(context.Context) (API, error) { return g.api, nil }, Host: "https://h"})
	if !strings.Contains(m.View().Content, "Reading the access token") {
		t.Fatal("no start screen while the keyring is read")
	}

	h = newHarness(t, Deps{Connect: func(context.Context) (API, error) {
		return nil, errors.New("no token for https://h yet: log in below, or set GITLAB_TOKEN")
	}, Login: func(context.Context, string, string) (API, error) { return g.api, nil }})
	h.mustSee("Log in to GitLab", "No token for https://h yet")
}

// Without a working keyring, a valid token still opens the console for the
// session, and the status says how to keep it.
func TestLoginWithoutKeyring(t *testing.T) {
	g := demoGitLab(t)
	login := func(ctx context.Context, host, token string) (API, error) {
		c, _ := apiclient.New(g.url, token, apiclienttest.WithRetries(0, 0))
		return c, &tokens.NotStoredError{Err: errors.New("no Secret Service")}
	}
	h := newHarness(t, Deps{Login: login, Host: g.url})
	h.send(tea.PasteMsg{Content: mockserver.TokenMaintainer})
	h.key("enter")
	h.mustSee("Projects you maintain", "demo/web-shop")
	h.mustSay("for this session only", "GITLAB_TOKEN")
}

// A pane's first load draws its own error, so the status line stays
// quiet, except for a refused token: that one opens the login screen
// (failedOnce's exception), unless the token is GITLAB_TOKEN's.
func TestPaneLoadUnauthorizedGoesToLogin(t *testing.T) {
	unauthorized := &apiclient.APIError{StatusCode: 401, Kind: apiclient.ErrUnauthorized, Message: "401 Unauthorized"}
	open := func(err error, tokenEnv string) *harness {
		g := demoGitLab(t)
		api := faulty(g.api)
		api.fail("ListClientKeys", err)
		return newHarness(t, Deps{API: api, Host: g.url, Project: "1", TokenEnv: tokenEnv,
			Login: func(context.Context, string, string) (API, error) { return g.api, nil }})
	}
	h := open(unauthorized, "")
	h.mustSee("Log in to GitLab")

	h = open(unauthorized, "GITLAB_TOKEN")
	h.mustSee("GITLAB_TOKEN")
	h.mustNotSee("Log in to GitLab")

	h = open(&apiclient.APIError{StatusCode: 500, Kind: apiclient.ErrServer, Message: "boom"}, "")
	h.mustNotSee("Log in to GitLab")
	if n := h.count("HTTP 500"); n != 1 {
		t.Fatalf("a failed first load is said %d times:\n%s", n, h.view())
	}
}
