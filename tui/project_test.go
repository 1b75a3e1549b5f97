package tui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
)

func openProject(t *testing.T, api *fakeAPI, project string) *harness {
	t.Helper()
	return newHarness(t, Deps{API: api, Project: project})
}

func TestProjectLoadingState(t *testing.T) {
	api := newFakeAPI()
	m := New(Deps{API: api, Project: "1", Host: "https://h"})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m = next.(Model)
	m.Init() // starts both loads; no answer delivered yet
	v := m.View().Content
	if !strings.Contains(v, "Loading client keys…") {
		t.Fatalf("no loading state:\n%s", v)
	}
	if !m.top().Busy() {
		t.Fatal("screen not busy while loading")
	}
}

func TestProjectShowsKeysAndSettings(t *testing.T) {
	h := openProject(t, newFakeAPI(), "1")
	h.mustSee("Client keys (2)", "Settings (active)", "glet_00000000000000000000000000000001", "https://glet_")
	h.key("tab")
	h.mustSee("Active        yes", "Integrated    yes", "Project name  —", "a: disable")
	if h.m.top().Busy() {
		t.Fatal("busy after loads finished")
	}
}

func TestProjectSettingsEmptyStateCreates(t *testing.T) {
	api := newFakeAPI()
	h := openProject(t, api, "2")
	h.key("tab")
	h.mustSee("not configured for this project yet", "[x] active", "[x] integrated", "Settings (none)")
	h.key("a") // choose inactive
	h.mustSee("[ ] active")
	h.key("enter")
	h.mustSee("Active        no", "Integrated    yes", "settings created")
	if api.count("CreateSettings") != 1 {
		t.Fatal("PUT not sent once")
	}
}

func TestDisableAsksFirstAndShowsServerRecord(t *testing.T) {
	api := newFakeAPI()
	h := openProject(t, api, "1")
	h.key("tab", "a")
	h.mustSee("Disable error tracking?", "No", "Disable")
	h.key("n")
	if api.count("UpdateSettings") != 0 {
		t.Fatal("PATCH sent after No")
	}
	h.mustSee("Active        yes")
	h.key("a", "y")
	h.mustSee("Active        no", "settings disabled")
	h.key("a") // enabling needs no confirmation
	h.mustSee("Active        yes", "settings enabled")
	if api.count("UpdateSettings") != 2 {
		t.Fatalf("PATCH count %d", api.count("UpdateSettings"))
	}
}

func TestCreateKey(t *testing.T) {
	api := newFakeAPI()
	h := openProject(t, api, "1")
	h.key("n")
	h.mustSee("Client keys (3)", "Created client key 3.")
	if api.count("CreateClientKey") != 1 {
		t.Fatal("POST not sent once")
	}
}

func TestDeleteDefaultsToNoAndNamesTheKey(t *testing.T) {
	api := newFakeAPI()
	h := openProject(t, api, "1")
	h.key("d")
	h.mustSee("Delete client key 1?", "glet_00000000000000000000000000000001")
	h.key("enter") // the highlighted choice is No
	if api.count("DeleteClientKey") != 0 {
		t.Fatal("enter on the default deleted the key")
	}
	h.key("d", "esc")
	h.key("d", "n")
	if api.count("DeleteClientKey") != 0 {
		t.Fatal("esc/n deleted the key")
	}
	h.key("d", "right", "enter")
	if got := api.keyIDs(1); len(got) != 1 || got[0] != 2 {
		t.Fatalf("keys after delete: %v", got)
	}
	h.mustSee("Deleted client key 1", "Client keys (1)")
}

func TestDeleteActsOnConfirmedKeyEvenIfListChanged(t *testing.T) {
	api := newFakeAPI()
	h := openProject(t, api, "1")
	h.key("down", "d") // asks about key 2
	h.mustSee("Delete client key 2?")
	// While the dialog is open the list refreshes with a new key first.
	s := h.m.top().(*projectScreen)
	s.keys = append([]apiclient.ClientKey{fakeKey(1, 9)}, s.keys...)
	h.key("y")
	if got := api.keyIDs(1); len(got) != 1 || got[0] != 1 {
		t.Fatalf("keys after delete: %v; want key 2 gone", got)
	}
}

func TestKeyAlreadyGone(t *testing.T) {
	api := newFakeAPI()
	h := openProject(t, api, "1")
	api.fail("DeleteClientKey", &apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrKeyNotFound})
	h.key("d", "y")
	h.mustSee("already gone", "Client keys (2)")
}

func TestRotate(t *testing.T) {
	api := newFakeAPI()
	h := openProject(t, api, "1")
	h.key("R")
	h.mustSee("New key 3 created. Delete old key 1?", "copied to the clipboard")
	if !h.sentType("Clipboard") {
		t.Fatal("new DSN not copied")
	}
	h.key("y")
	if got := api.keyIDs(1); len(got) != 2 || got[0] != 2 || got[1] != 3 {
		t.Fatalf("keys after rotate: %v", got)
	}
	h.mustSee("Deleted client key 1")
}

func TestRotateKeepOld(t *testing.T) {
	api := newFakeAPI()
	h := openProject(t, api, "1")
	h.key("R", "n")
	if got := api.keyIDs(1); len(got) != 3 {
		t.Fatalf("keys: %v", got)
	}
}

func TestCopyAndShow(t *testing.T) {
	h := openProject(t, newFakeAPI(), "1")
	h.key("c")
	h.mustSee("Copied the DSN of key 1")
	if !h.sentType("Clipboard") {
		t.Fatal("no OSC 52 command")
	}
	h.key("down", "enter")
	h.mustSee("Client key 2", "https://glet_00000000000000000000000000000002@errors.example.com:443/errortr")
	h.key("esc")
	h.mustNotSee("Public key: ")
}

func TestFailedRequestLeavesScreen(t *testing.T) {
	api := newFakeAPI()
	h := openProject(t, api, "1")
	api.fail("CreateClientKey", &apiclient.APIError{StatusCode: 502, Kind: apiclient.ErrServer})
	h.key("n")
	h.mustSee("HTTP 502", "press r to refresh", "Client keys (2)")
	api.fail("UpdateSettings", &apiclient.APIError{StatusCode: 403, Kind: apiclient.ErrInsufficientScope})
	h.key("tab", "a", "y")
	h.mustSee("lacks the api scope", "Active        yes")
	api.fail("ListClientKeys", &apiclient.APIError{StatusCode: 503, Kind: apiclient.ErrServer})
	h.key("r")
	h.key("tab")
	h.mustSee("HTTP 503", "glet_00000000000000000000000000000001")
}

func TestErrorWords(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{&apiclient.APIError{StatusCode: 403, Kind: apiclient.ErrForbidden}, "Maintainer role"},
		{&apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrProjectNotFound}, "Project not found"},
		{&apiclient.APIError{StatusCode: 429, Kind: apiclient.ErrRateLimited, RetryAfter: 3e9}, "Wait 3 s"},
		{&apiclient.APIError{Kind: apiclient.ErrNetwork, Message: "could not reach the server: connection refused"}, "Could not reach the server"},
	}
	for _, tc := range cases {
		api := newFakeAPI()
		api.fail("ListClientKeys", tc.err)
		h := openProject(t, api, "1")
		h.mustSee(tc.want)
	}
}

func TestIntegratedUnavailable(t *testing.T) {
	api := newFakeAPI()
	h := openProject(t, api, "2")
	api.fail("CreateSettings", &apiclient.APIError{StatusCode: 404, Kind: apiclient.ErrIntegratedUnavailable})
	h.key("tab", "enter")
	h.mustSee("not available on this GitLab instance", "not configured for this project yet")
}

func TestOneCreateAtATime(t *testing.T) {
	api := newFakeAPI()
	m := New(Deps{API: api, Project: "1", Host: "https://h"})
	next, _ := m.Update(keyMsg("n"))
	next, cmd2 := next.Update(keyMsg("n"))
	m = next.(Model)
	if s := m.top().(*projectScreen); s.createID == 0 {
		t.Fatal("no create in flight")
	}
	if msg := cmd2(); msg == nil {
		t.Fatal("second press gave no feedback")
	} else if st, ok := msg.(statusMsg); !ok || !strings.Contains(st.text, "already") {
		t.Fatalf("second press: %#v", msg)
	}
}

func TestStaleResultsIgnored(t *testing.T) {
	api := newFakeAPI()
	h := openProject(t, api, "1")
	s := h.m.top().(*projectScreen)
	_, reload := s.Update(keyMsg("r")) // a newer load starts, not yet answered
	inFlight := s.keysID
	h.send(keysLoadedMsg{id: inFlight - 1, keys: nil}) // an older answer arrives late
	h.send(keysLoadedMsg{id: 0, keys: nil})
	h.mustSee("Client keys (2)")
	h.run(reload)
	h.mustSee("Client keys (2)")
	if s.Busy() {
		t.Fatal("still busy after the current answer")
	}
}

func TestUnauthorizedGoesToLogin(t *testing.T) {
	api := newFakeAPI()
	api.fail("ListClientKeys", &apiclient.APIError{StatusCode: 401, Kind: apiclient.ErrTokenExpired})
	h := newHarness(t, Deps{API: api, Project: "1", Login: func(context.Context, string, string) (API, error) { return api, nil }})
	h.mustSee("Log in to GitLab", "Your token has expired")
}

func TestHostileServerTextIsSanitized(t *testing.T) {
	api := newFakeAPI()
	evil := "\x1b]0;pwned\x07\x1b[2Jglet_evil\x1b[31m"
	api.keys[1] = []apiclient.ClientKey{{ID: 1, Active: true, PublicKey: evil, DSN: "https://x\x1bc@h/\x07"}}
	name := "\x1b]2;retitled\x07Evil"
	api.settings[1].ProjectName = &name
	h := openProject(t, api, "1")
	raw := h.m.View().Content
	for _, bad := range []string{"\x1b]0;", "\x1b]2;", "\x1b[2J", "\x1bc", "\x07"} {
		if strings.Contains(raw, bad) {
			t.Fatalf("escape %q reached the screen", bad)
		}
	}
	h.mustSee("glet_evil")
	h.key("tab")
	if raw := h.m.View().Content; strings.Contains(raw, "\x1b]2;") || !strings.Contains(ansiStrip(raw), "Evil") {
		t.Fatal("project name not sanitized")
	}
}

func TestSmallAndLargeTerminals(t *testing.T) {
	h := openProject(t, newFakeAPI(), "1")
	for _, size := range [][2]int{{80, 24}, {200, 60}, {40, 10}} {
		h.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(h.view(), "\n")
		if len(lines) != size[1] {
			t.Fatalf("%dx%d: %d lines", size[0], size[1], len(lines))
		}
		for _, l := range lines {
			if w := len([]rune(l)); w > size[0] {
				t.Fatalf("%dx%d: line of %d cells: %q", size[0], size[1], w, l)
			}
		}
	}
}

func TestKeysTabWarnsWhenTrackingIsOff(t *testing.T) {
	api := newFakeAPI()
	api.settings[1].Active = false
	h := openProject(t, api, "1")
	h.mustSee("Error tracking is disabled for this project", "glet_00000000000000000000000000000002")
	h = openProject(t, newFakeAPI(), "2")
	h.mustSee("not configured for this project yet (tab")
	h = openProject(t, newFakeAPI(), "1")
	h.mustNotSee("Error tracking is disabled", "not configured")
}

func TestLongDSNKeepsHostInView(t *testing.T) {
	h := openProject(t, newFakeAPI(), "1")
	h.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	h.mustSee("https://glet_…@errors.exam…")
	h.send(tea.WindowSizeMsg{Width: 160, Height: 24})
	h.mustSee("https://glet_00000000000000000000000000000001@errors.example.com:443/errortracking/api/v1/projects/1")
}

func TestCreateDuringRefreshIsKept(t *testing.T) {
	api := newFakeAPI()
	h := openProject(t, api, "1")
	s := h.m.top().(*projectScreen)
	_, reload := s.Update(keyMsg("r")) // list requested, answer not yet delivered
	stale := reload                    // it will have been read before the create
	staleMsgs := h.collect(stale, 0)
	h.key("n") // the create completes while the list is in flight
	h.mustSee("Client keys (3)")
	for _, m := range staleMsgs {
		h.send(m)
	}
	h.mustSee("Client keys (3)", "glet_00000000000000000000000000000003")
}
