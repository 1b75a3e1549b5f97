package tui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
)

func TestProjectLoadingState(t *testing.T) {
	g := demoGitLab(t)
	m := New(Deps{API: g.api, Project: "1", Host: "https://h"})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m = next.(Model)
	m.Init() // starts the loads; no answer delivered yet
	if v := m.View().Content; !strings.Contains(v, "Loading client keys…") {
		t.Fatalf("no loading state:\n%s", v)
	}
	if !m.top().Busy() {
		t.Fatal("screen not busy while loading")
	}
}

func TestProjectShowsKeysAndSettings(t *testing.T) {
	h, g := console(t, "1")
	h.resize(130, 30) // room for USED IN and the DSN
	keys := g.srv.Keys(1)
	h.mustSee("Client keys (2)", "Settings (active)", keys[0].PublicKey, "USED IN", "SENTRY_DSN (+? group demo unread)", "? (group demo unread)", "http://glet_", "1/2")
	// at 120 the reason stays whole, and key 1 keeps its caveat
	h.resize(120, 30)
	h.mustSee("SENTRY_DSN (+? group demo unread)", "? (group demo unread)")
	h.resize(130, 30)
	h.key("tab")
	h.mustSee("Active        yes", "Integrated    yes", "Project name  —", "a disable")
	if h.m.top().Busy() {
		t.Fatal("busy after loads finished")
	}
}

// A failed load shows in the pane, once, wrapped between words.
func TestErrorsShownOnce(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	f.fail("ListClientKeys", &apiclient.APIError{StatusCode: 503, Kind: apiclient.ErrServer})
	h := newHarness(t, Deps{API: f, Host: g.url, Project: "1"})
	h.resize(60, 20)
	h.mustSee("Could not load the client keys.")
	if n := h.count("HTTP 503"); n != 1 {
		t.Fatalf("the error shows %d times:\n%s", n, h.view())
	}
	for _, l := range strings.Split(h.view(), "\n") {
		if l := strings.TrimSpace(l); strings.HasSuffix(l, "fai") || strings.HasSuffix(l, "Wai") {
			t.Fatalf("wrapped inside a word: %q", l)
		}
	}
}

// r says it refreshed, once everything is back.
func TestRefreshSaysSo(t *testing.T) {
	h, g := console(t, "1")
	g.api.CreateClientKey(context.Background(), apiclient.ProjectID(1)) // made elsewhere
	h.key("r")
	h.mustSee("Refreshed.", "Client keys (3)")
}

func TestErrorWords(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{&apiclient.APIError{StatusCode: 403, Kind: apiclient.ErrForbidden}, "Maintainer role"},
		{&apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrProjectNotFound}, "Project not found"},
		{&apiclient.APIError{StatusCode: 429, Kind: apiclient.ErrRateLimited, RetryAfter: 3e9}, "Wait 3 s"},
		{&apiclient.APIError{Kind: apiclient.ErrNetwork, Message: "could not reach the server: connection refused"}, "Could not reach the server"},
	} {
		g := demoGitLab(t)
		f := faulty(g.api)
		f.fail("ListClientKeys", tc.err)
		h := newHarness(t, Deps{API: f, Host: g.url, Project: "1"})
		h.mustSee(tc.want)
	}
}

// A refresh reads the project's variables once: where the keys' DSNs are
// used is read when the keys and the settings have both come back, not
// again for each.
func TestRefreshReadsVariablesOnce(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	h := newHarness(t, Deps{API: f, Host: g.url, Project: "1"})
	h.mustSee("Client keys (2)")
	before := f.count("ListVariables")
	h.key("r")
	h.mustSee("Client keys (2)")
	if n := f.count("ListVariables") - before; n != 1 {
		t.Fatalf("a refresh read the variables %d times", n)
	}
}
