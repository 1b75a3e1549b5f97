package tui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/tokens"
)

func TestQuitKeys(t *testing.T) {
	h, _ := console(t, "1")
	h.key("q")
	if !h.sentType("QuitMsg") {
		t.Fatal("q did not quit the project screen")
	}
	// On the project list q quits too, the first key most people press
	// (issue 31); in its filter (/) letters are text: only ctrl+c quits.
	h, _ = console(t, "")
	h.key("q")
	if !h.sentType("QuitMsg") {
		t.Fatal("q did not quit the project list")
	}
	h, _ = console(t, "")
	h.filter("q")
	if h.sentType("QuitMsg") {
		t.Fatal("q quit from the project list's filter, where it is a letter of a path")
	}
	h.key("ctrl+c")
	if !h.sentType("QuitMsg") {
		t.Fatal("ctrl+c did not quit")
	}
}

func TestHelpToggle(t *testing.T) {
	h, _ := console(t, "1")
	h.mustSee("n new", "d delete", "tab settings", "? help", "q quit")
	h.key("?")
	h.mustSee("Keys", "page down", "copy DSN", "rotate")
	h.key("n") // keys do nothing while help is open
	h.key("?")
	h.mustNotSee("page down")
	h.mustSee("Client keys (2)")
	// On the project list, ? is help too: no path or name holds one.
	h, _ = console(t, "")
	h.key("?")
	h.mustSee("Keys", "forget recent")
}

func TestStatusBar(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "demo/web-shop", Demo: true})
	h.mustSee(g.url, "@demo-maintainer", "demo/web-shop", "DEMO")
}

// The console warns with the same words `errtrack status` uses.
func TestTokenExpiryWarning(t *testing.T) {
	g := newGitLab(t, mockserver.Options{}, mockserver.TokenExpiring)
	h := newHarness(t, Deps{API: g.api, Host: g.url})
	h.mustSee("⚠ token expires in 3 days")
	g = demoGitLab(t)
	h = newHarness(t, Deps{API: g.api, Host: g.url})
	h.mustNotSee("token expires")
}

// Timers run through the console's clock: the status message goes when its
// time is up, not before.
func TestStatusMessageExpires(t *testing.T) {
	h, _ := console(t, "1")
	h.key("c")
	h.mustSee("Sent the DSN of key 1")
	h.advance(statusTTL - time.Second)
	h.mustSee("Sent the DSN of key 1")
	h.advance(2 * time.Second)
	h.mustNotSee("Sent the DSN")
	// An error stays until something replaces it.
	h.send(statusMsg{text: "boom", kind: statusError})
	h.advance(time.Minute)
	h.mustSee("boom")
}

func TestSpinnerTurnsWhileBusy(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	h := newHarness(t, Deps{API: f, Host: g.url, Project: "1"})
	cmd := h.holdWrite("n") // the create waits
	before := h.view()
	h.advance(spinnerInterval)
	if h.view() == before {
		t.Fatal("the spinner did not move")
	}
	h.run(cmd)
	h.mustSee("Created client key 4")
}

// --accessible: the status bar says "working…" in words and nothing moves;
// no colour is drawn.
func TestAccessibleConsoleDoesNotAnimate(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	h := newHarness(t, Deps{API: f, Host: g.url, Project: "1", Accessible: true})
	cmd := h.holdWrite("n")
	h.mustSee("working…")
	before := h.m.View().Content
	h.advance(10 * spinnerInterval)
	if h.m.View().Content != before {
		t.Fatal("the accessible console changed while nothing happened")
	}
	if strings.Contains(before, "\x1b[38;") || strings.Contains(before, "\x1b[48;") {
		t.Fatalf("the accessible console drew colour:\n%q", before)
	}
	h.run(cmd)
	h.mustSee("Created client key 4")
	h.mustNotSee("working…")
}

func TestBadProjectFlag(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "not a project"})
	h.mustSee("Projects you maintain", "not a project")
}

func TestLightBackgroundAndNoColor(t *testing.T) {
	h, _ := console(t, "1")
	dark := h.m.View().Content
	h.send(tea.BackgroundColorMsg{Color: lightGray{}})
	if h.m.isDark || h.m.View().Content == dark {
		t.Fatal("styles not rebuilt for a light background")
	}
	t.Setenv("NO_COLOR", "1")
	h, _ = console(t, "1")
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

func TestDialogKeys(t *testing.T) {
	k := DefaultKeyMap()
	d := confirmDialog("t", nil, "Yes", "confirmed")
	d.onNo = "declined"
	if _, cmd, done := d.update(keyMsg("enter"), k); !done || cmd() != "declined" {
		t.Fatal("enter on the default must be No")
	}
	d2, _, _ := d.update(keyMsg("tab"), k)
	if _, cmd, done := d2.update(keyMsg("enter"), k); !done || cmd == nil || cmd() != "confirmed" {
		t.Fatal("enter on Yes must confirm")
	}
	if _, cmd, done := d.update(keyMsg("y"), k); !done || cmd() != "confirmed" {
		t.Fatal("y must confirm")
	}
	if _, cmd, done := d.update(keyMsg("esc"), k); !done || cmd() != "declined" {
		t.Fatal("esc must decline")
	}
	if _, _, done := d.update(keyMsg("x"), k); done {
		t.Fatal("unbound key closed the dialog")
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

func TestRetryNoticeShown(t *testing.T) {
	h, _ := console(t, "")
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
	if _, cmd2 := m.Update(keyMsg("enter")); cmd2 != nil {
		t.Fatal("second login started while the first runs")
	}
}

// frameFits checks that a frame has exactly h lines of at most w cells.
func frameFits(t *testing.T, frame string, w, h int) {
	t.Helper()
	lines := strings.Split(frame, "\n")
	if len(lines) != h {
		t.Fatalf("frame has %d lines, want %d", len(lines), h)
	}
	for _, l := range lines {
		if lipgloss.Width(l) > w {
			t.Fatalf("line wider than %d: %q", w, l)
		}
	}
}

// At 80x24 the help bar keeps "? help" and "q quit", whatever else it drops.
func TestHelpBarKeepsHelpAndQuit(t *testing.T) {
	h, _ := console(t, "1")
	for _, size := range [][2]int{{80, 24}, {60, 15}, {40, 10}} {
		h.resize(size[0], size[1])
		h.mustSee("? help", "q quit")
		frameFits(t, h.m.View().Content, size[0], size[1])
	}
	h.key("tab")
	h.resize(80, 24)
	h.mustSee("? help", "q quit")
}

// Boxes are never cut: their corners and buttons show down to 40x10.
func TestDialogsFitSmallTerminals(t *testing.T) {
	for _, size := range [][2]int{{60, 15}, {40, 10}} {
		h, _ := console(t, "1")
		h.resize(size[0], size[1])
		h.key("d")
		checkBox(t, h, size, "Delete")
		h.key("esc", "down", "R")
		checkBox(t, h, size, "Delete")
		h.key("n", "enter")
		checkBox(t, h, size, "OK")
		h.key("esc", "?")
		frameFits(t, h.m.View().Content, size[0], size[1])
	}
}

func checkBox(t *testing.T, h *harness, size [2]int, button string) {
	t.Helper()
	v := h.view()
	frameFits(t, h.m.View().Content, size[0], size[1])
	if !strings.Contains(v, button) || strings.Count(v, "╭") != 1 || strings.Count(v, "╯") != 1 {
		t.Fatalf("%dx%d: box cut or button %q missing:\n%s", size[0], size[1], button, v)
	}
}

// View draws and changes nothing: two draws of one state are the same,
// and drawing does not move the list.
func TestViewChangesNothing(t *testing.T) {
	h, _ := console(t, "1")
	s := h.m.top().(*projectScreen)
	before := s.keys.list
	a, b := h.m.View().Content, h.m.View().Content
	if a != b || s.keys.list != before {
		t.Fatal("View changed the state")
	}
}

// The harness waits for every command, however slow: against a server that
// takes 150 ms per request, the flows behave as they do at full speed.
func TestSlowServerFlows(t *testing.T) {
	g := newGitLab(t, mockserver.Options{Latency: 150 * time.Millisecond}, mockserver.TokenMaintainer)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "1"})
	h.mustSee("Client keys (2)", "@demo-maintainer")
	h.key("R", "y") // update SENTRY_DSN
	h.mustSee("Delete old key 1?")
	h.key("y")
	h.mustSee("Rotated: new key 4 replaces key 1")
	if ids := g.keyIDs(1); len(ids) != 2 || ids[1] != 4 {
		t.Fatalf("keys %v", ids)
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

// ? lists every key once, under headings, and the mouse.
func TestHelpOverlayHasHeadingsAndEachKeyOnce(t *testing.T) {
	h, _ := console(t, "1")
	h.resize(100, 40)
	h.key("?")
	h.mustSee("Keys here (demo/web-shop)", "Everywhere", "Mouse", "the wheel scrolls")
	for _, k := range []string{" esc ", " ?  ", " r  "} {
		if n := h.count(k); n > 1 {
			t.Fatalf("%q listed %d times:\n%s", k, n, h.view())
		}
	}
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

// The quit question follows the changes it warns about: once the change
// ends, it closes and says nothing is under way any more.
func TestQuitQuestionFollowsTheChange(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: faulty(g.api), Host: g.url, Project: "1"})
	create := h.holdWrite("n")
	h.key("q")
	h.mustSay("Quit with a change under way?", "a client key was being created in demo/web-shop",
		"It may happen or not", "Check the project before trying again.") // one change: not "each", not "the projects"
	h.run(create)
	h.mustNotSee("Quit with a change under way?")
	h.mustSay("nothing is under way any more")
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
