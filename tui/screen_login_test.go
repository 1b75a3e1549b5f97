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
)

func TestLoginScreen(t *testing.T) {
	g := demoGitLab(t)
	var gotHost, gotToken string
	login := func(ctx context.Context, host, token string) (API, error) {
		gotHost, gotToken = host, token
		c, err := apiclient.New(g.url, token, apiclienttest.WithRetries(0, 0))
		if err != nil {
			return nil, err
		}
		if _, _, err := c.CurrentUser(ctx); err != nil {
			return nil, err
		}
		return c, nil
	}
	h := newHarness(t, Deps{Login: login, Host: g.url, LoginReason: "No token for " + g.url + " yet."})
	h.mustSee("Log in to GitLab", "No token for", "Host:  "+g.url, "Token:")
	h.key("q") // typed into the token field, not quit
	if h.sentType("QuitMsg") {
		t.Fatal("q quit from a text field")
	}
	h.key("backspace", "enter")
	h.mustSee("Type or paste a personal access token")
	h.typeText("wrong")
	h.mustNotSee("wrong")
	h.key("enter")
	h.mustSee("did not accept your token")
	h.send(tea.PasteMsg{Content: mockserver.TokenMaintainer})
	h.mustNotSee(mockserver.TokenMaintainer)
	h.mustSee("•••")
	h.key("enter")
	if gotHost != g.url || gotToken != mockserver.TokenMaintainer {
		t.Fatalf("login got %q, %q", gotHost, gotToken)
	}
	h.mustSee("Projects you maintain", "Logged in", "@demo-maintainer")
	if strings.Contains(h.m.View().Content, mockserver.TokenMaintainer) {
		t.Fatal("token drawn")
	}
}

func TestLoginHostValidation(t *testing.T) {
	h := newHarness(t, Deps{Login: func(context.Context, string, string) (API, error) { return nil, errors.New("unused") }})
	h.key("tab", "ctrl+u") // from the token field to the host field, cleared
	h.typeText("ftp://x")
	h.key("tab")
	h.send(tea.PasteMsg{Content: "tok"})
	h.key("enter")
	h.mustSee("not supported")
}

func TestLoginCheckingState(t *testing.T) {
	m := New(Deps{Host: "https://h", Login: func(context.Context, string, string) (API, error) { return nil, errors.New("unused") }})
	m.Init() // focuses the token field
	next, _ := m.Update(tea.PasteMsg{Content: "fake-token"})
	next, cmd := next.Update(keyMsg("enter"))
	m = next.(Model)
	if cmd == nil || !m.top().Busy() || !strings.Contains(m.View().Content, "Checking the token") {
		t.Fatalf("no checking state:\n%s", m.View().Content)
	}
	if strings.Contains(m.View().Content, "fake-token") {
		t.Fatal("token drawn")
	}
	if _, cmd2 := m.Update(keyMsg("enter")); cmd2 != nil {
		t.Fatal("second login started while the first runs")
	}
}

// The login screen: the field with focus is drawn first, a token pasted
// into the host field goes to the masked one, the token page is the host's
// real address, and a failure says how to try again without a letter that
// would land in a field.
func TestLoginScreenIsTrue(t *testing.T) {
	g := demoGitLab(t)
	login := func(ctx context.Context, host, token string) (API, error) {
		return nil, &apiclient.APIError{StatusCode: 503, Kind: apiclient.ErrServer, Message: "down"}
	}
	h := newHarness(t, Deps{Login: login, Host: g.url})
	v := h.view()
	if strings.Index(v, "Token:") > strings.Index(v, "Host:") {
		t.Fatalf("the focused token field is not drawn first:\n%s", v)
	}
	h.mustSee(g.url + "/-/user_settings/personal_access_tokens?name=errtrack&scopes=api")
	h.key("tab") // to the host field
	h.send(tea.PasteMsg{Content: mockserver.TokenMaintainer})
	h.mustNotSee(mockserver.TokenMaintainer)
	h.mustSee("it went into the Token field", "Host:  "+g.url)
	h.key("enter")
	h.mustSee("press enter to try again")
	h.mustNotSee("press r")

	// Typed after the host, a token's prefix sends it to the masked field.
	h.key("tab")
	h.typeText("glpat-abcdefghijklmnopqrst")
	h.mustNotSee("glpat-")
	h.mustSee("Host:  " + g.url)
}

// A token the server never judged (the host did not answer) stays, masked,
// for the next try once the host is fixed; a refused one goes.
func TestLoginKeepsTokenWhenHostUnreachable(t *testing.T) {
	g := demoGitLab(t)
	var tokens []string
	login := func(ctx context.Context, host, token string) (API, error) {
		tokens = append(tokens, token)
		c, err := apiclient.New(host, token, apiclienttest.WithRetries(0, 0))
		if err != nil {
			return nil, err
		}
		if _, _, err := c.CurrentUser(ctx); err != nil {
			return nil, err
		}
		return c, nil
	}
	h := newHarness(t, Deps{Login: login, Host: "http://127.0.0.1:1"})
	h.send(tea.PasteMsg{Content: mockserver.TokenMaintainer})
	h.key("enter")
	h.mustSee("press enter to try again", "•••")
	h.mustNotSee(mockserver.TokenMaintainer)
	h.key("ctrl+u") // the host field has the focus: what to fix
	h.typeText(g.url)
	h.key("enter")
	h.mustSee("Projects you maintain", "@demo-maintainer")
	if len(tokens) != 2 || tokens[1] != mockserver.TokenMaintainer {
		t.Fatalf("logins with %d tokens", len(tokens))
	}
}

// At 80x24 the login screen shows the token page's address whole (it was
// cut to "…&…"): every part of it, in order, no ellipsis.
func TestLoginShowsTheTokenURLWhole(t *testing.T) {
	h := newHarness(t, Deps{Login: func(context.Context, string, string) (API, error) { return nil, nil },
		Host: "https://gitlab.example-company.com", LoginReason: "No token yet."})
	h.resize(80, 24)
	want := "https://gitlab.example-company.com/-/user_settings/personal_access_tokens?name=errtrack&scopes=api"
	v := h.view()
	if strings.Contains(v, "…") {
		t.Fatalf("the login screen cuts something:\n%s", v)
	}
	joined := strings.ReplaceAll(strings.Join(strings.Fields(v), ""), " ", "")
	if !strings.Contains(joined, want) {
		t.Fatalf("the login screen does not show %s whole:\n%s", want, v)
	}
}
