package tui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
)

func TestQuitKeys(t *testing.T) {
	for _, k := range []string{"q", "ctrl+c"} {
		h := newHarness(t, Deps{API: newFakeAPI()})
		h.key(k)
		if !h.sentType("QuitMsg") {
			t.Fatalf("%s did not quit", k)
		}
	}
}

func TestHelpToggle(t *testing.T) {
	h := newHarness(t, Deps{API: newFakeAPI(), Project: "1"})
	h.mustSee("n new", "d delete", "tab settings", "? help", "q quit")
	h.key("?")
	h.mustSee("Keys", "page down", "copy DSN", "rotate")
	h.key("n") // keys do nothing while help is open
	h.key("?")
	h.mustNotSee("page down")
	h.mustSee("Client keys (2)")
}

func TestStatusBar(t *testing.T) {
	h := newHarness(t, Deps{API: newFakeAPI(), Project: "demo/web-shop", Demo: true})
	h.mustSee("https://gitlab.example.com", "@alice", "demo/web-shop", "DEMO")
}

func TestTokenExpiryWarning(t *testing.T) {
	api := newFakeAPI()
	api.token = &apiclient.TokenInfo{Scopes: []string{"api"}, ExpiresAt: "2026-11-25"}
	h := newHarness(t, Deps{API: api})
	h.mustSee("token expires in 3 days")
	api.token.ExpiresAt = "2027-11-25"
	h = newHarness(t, Deps{API: api})
	h.mustNotSee("token expires")
}

func TestStatusMessageExpires(t *testing.T) {
	h := newHarness(t, Deps{API: newFakeAPI(), Project: "1"})
	h.key("c")
	h.mustSee("Copied the DSN")
	h.send(clearStatusMsg{seq: h.m.statusSeq - 1}) // an older timer: ignored
	h.mustSee("Copied the DSN")
	h.send(clearStatusMsg{seq: h.m.statusSeq})
	h.mustNotSee("Copied the DSN")
}

func TestBadProjectFlag(t *testing.T) {
	h := newHarness(t, Deps{API: newFakeAPI(), Project: "not a project"})
	h.mustSee("Projects you maintain", "not a project")
}

func TestLightBackgroundAndNoColor(t *testing.T) {
	h := newHarness(t, Deps{API: newFakeAPI(), Project: "1"})
	dark := h.m.View().Content
	h.send(tea.BackgroundColorMsg{Color: lightGray{}})
	if h.m.isDark || h.m.View().Content == dark {
		t.Fatal("styles not rebuilt for a light background")
	}
	t.Setenv("NO_COLOR", "1")
	h = newHarness(t, Deps{API: newFakeAPI(), Project: "1"})
	if v := h.m.View().Content; strings.Contains(v, "38;2;") || strings.Contains(v, "48;2;") {
		t.Fatal("colours drawn under NO_COLOR")
	}
	if !strings.Contains(h.m.View().Content, "\x1b[7m") {
		t.Fatal("no reverse video for the selection under NO_COLOR")
	}
}

type lightGray struct{}

func (lightGray) RGBA() (r, g, b, a uint32) { return 0xeeee, 0xeeee, 0xeeee, 0xffff }

func TestLoginScreen(t *testing.T) {
	const secret = "fake-secret-token-123"
	var gotHost, gotToken string
	api := newFakeAPI()
	login := func(_ context.Context, host, token string) (API, error) {
		gotHost, gotToken = host, token
		if token != secret {
			return nil, &apiclient.APIError{StatusCode: 401, Kind: apiclient.ErrUnauthorized}
		}
		return api, nil
	}
	h := newHarness(t, Deps{Login: login, Host: "https://gitlab.example.com", LoginReason: "No token for https://gitlab.example.com yet."})
	h.mustSee("Log in to GitLab", "No token for", "Host:  https://gitlab.example.com", "Token:")
	h.key("q") // typed into the token field, not quit
	if h.sentType("QuitMsg") {
		t.Fatal("q quit from a text field")
	}
	h.key("backspace")
	h.key("enter")
	h.mustSee("Type or paste a personal access token")
	for _, r := range "wrong" {
		h.key(string(r))
	}
	h.mustNotSee("wrong")
	h.key("enter")
	h.mustSee("did not accept your token")
	h.send(tea.PasteMsg{Content: secret})
	h.mustNotSee(secret)
	h.mustSee("•••")
	h.key("enter")
	if gotHost != "https://gitlab.example.com" || gotToken != secret {
		t.Fatalf("login got %q, %q", gotHost, gotToken)
	}
	h.mustSee("Projects you maintain", "Logged in", "@alice")
	if strings.Contains(h.m.View().Content, secret) {
		t.Fatal("token drawn")
	}
}

func TestLoginHostValidation(t *testing.T) {
	h := newHarness(t, Deps{Login: func(context.Context, string, string) (API, error) { return nil, errors.New("unused") }})
	h.key("tab", "ctrl+u") // from the token field to the host field, cleared
	for _, r := range "ftp://x" {
		h.key(string(r))
	}
	h.key("tab")
	h.send(tea.PasteMsg{Content: "tok"})
	h.key("enter")
	h.mustSee("not supported")
}

func TestDialogKeys(t *testing.T) {
	k := DefaultKeyMap()
	d := confirmDialog("t", nil, "Yes", "confirmed")
	if _, cmd, done := d.update(keyMsg("enter"), k); !done || cmd != nil {
		t.Fatal("enter on the default must be No")
	}
	d2, _, _ := d.update(keyMsg("tab"), k)
	if _, cmd, done := d2.update(keyMsg("enter"), k); !done || cmd == nil || cmd() != "confirmed" {
		t.Fatal("enter on Yes must confirm")
	}
	if _, cmd, done := d.update(keyMsg("y"), k); !done || cmd() != "confirmed" {
		t.Fatal("y must confirm")
	}
	if _, _, done := d.update(keyMsg("x"), k); done {
		t.Fatal("unbound key closed the dialog")
	}
}

func TestConnectInsideTheConsole(t *testing.T) {
	api := newFakeAPI()
	h := newHarness(t, Deps{Connect: func(context.Context) (API, error) { return api, nil }, Project: "1", Notice: "config file was unreadable"})
	h.mustSee("Client keys (2)", "@alice", "config file was unreadable")

	m := New(Deps{Connect: func(context.Context) (API, error) { return api, nil }, Host: "https://h"})
	if !strings.Contains(m.View().Content, "Reading the access token") {
		t.Fatal("no start screen while the keyring is read")
	}

	h = newHarness(t, Deps{Connect: func(context.Context) (API, error) {
		return nil, errors.New("no token for https://h yet: log in below, or set GITLAB_TOKEN")
	}, Login: func(context.Context, string, string) (API, error) { return api, nil }})
	h.mustSee("Log in to GitLab", "No token for https://h yet")
}

func TestRetryNoticeShown(t *testing.T) {
	h := newHarness(t, Deps{API: newFakeAPI()})
	h.send(RetryNotice{Wait: 2500 * time.Millisecond, StatusCode: 429, RateLimited: true})
	h.mustSee("Rate limited by the server; retrying in 3 s")
	h.send(RetryNotice{Wait: time.Second, StatusCode: 503})
	h.mustSee("HTTP 503; retrying in 1 s")
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
	next, _ = m.Update(keyMsg("enter")) // a second enter does not log in twice
	if _, cmd2 := next.Update(keyMsg("enter")); cmd2 != nil {
		t.Fatal("second login started while the first runs")
	}
}
