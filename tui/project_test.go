package tui

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/seen"
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

// PUT on a project without settings: the server creates the first key
// with them, and the console says so.
func TestCreateSettingsNamesTheFirstKey(t *testing.T) {
	h, g := console(t, "2")
	h.key("tab")
	h.mustSee("not configured for this project yet", "[x] active", "[x] integrated", "Settings (none)")
	h.key("a", "a") // off and on again
	h.mustSee("[x] active")
	h.key("enter")
	h.mustSee("Active        yes", "Integrated    yes")
	h.mustSay("settings created for demo/mobile-app", "GitLab created the first client key, 4")
	h.mustSee("Client keys (1)")
	if g.srv.KeyCount(2) != 1 {
		t.Fatal("the server has no first key")
	}
}

// Turning integrated tracking back on (a PATCH) also names the key it creates.
func TestEnablingIntegratedNamesTheFirstKey(t *testing.T) {
	h, g := console(t, "3") // Sentry configured, no keys: it opens on its settings
	h.mustSee("Integrated    no", "i use integrated")
	h.key("i") // asks, as switching back does
	h.mustSay("Use integrated error tracking?", "external Sentry")
	h.key("y")
	h.mustSee("Integrated    yes")
	h.mustSay("GitLab created the first client key")
	if g.srv.KeyCount(3) != 1 {
		t.Fatal("no key on the server")
	}
	// With a Sentry configured, switching back is offered.
	h.mustSee("i use Sentry")
	h.key("i")
	h.mustSee("Stop using integrated error tracking?", "sentry.example.com")
	h.key("y")
	h.mustSee("Integrated    no", "switched to the external tracker")
}

// Without a Sentry configured, switching integrated off would be refused by
// the server: it is not offered, and the screen says where it is set up.
func TestExternalTrackerOnlyWhereConfigured(t *testing.T) {
	h, _ := console(t, "1")
	h.key("tab")
	h.mustNotSee("i use Sentry", "i toggle")
	h.mustSay("configure it in GitLab's web UI: Settings > Monitor > Error Tracking")
	h.key("i")
	h.mustSay("No external tracker is configured", "Settings > Monitor > Error Tracking")
	h.mustSee("Integrated    yes")
}

func TestDisableAsksFirstAndShowsServerRecord(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	h := newHarness(t, Deps{API: f, Host: g.url, Project: "1"})
	h.key("tab", "a")
	h.mustSee("Disable error tracking?", "No", "Disable")
	h.key("n")
	if f.count("UpdateSettings") != 0 {
		t.Fatal("PATCH sent after No")
	}
	h.mustSee("Active        yes")
	h.key("a", "y")
	h.mustSee("Active        no", "settings disabled")
	h.key("a") // enabling needs no confirmation
	h.mustSee("Active        yes", "settings enabled")
	if f.count("UpdateSettings") != 2 {
		t.Fatalf("PATCH count %d", f.count("UpdateSettings"))
	}
}

// A read_api token reads: nothing that writes is offered, and the screen says why.
func TestReadOnlyToken(t *testing.T) {
	g := newGitLab(t, mockserver.Options{}, mockserver.TokenReadOnly)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "1"})
	h.mustSee("Read-only token", "Client keys (2)")
	h.mustNotSee("n new", "d delete", "R rotate")
	h.key("n", "d", "R")
	h.mustNotSee("Delete client key", "Created")
	if g.srv.KeyCount(1) != 2 {
		t.Fatal("a read-only token changed keys")
	}
	h.key("tab")
	h.mustSee("Read-only token (read_api)")
	h.mustNotSee("a disable")
	h.key("a")
	h.mustNotSee("Disable error tracking?")
}

func TestCreateKey(t *testing.T) {
	h, g := console(t, "1")
	h.key("n")
	h.mustSee("Client keys (3)", "Created client key 4 in demo/web-shop.")
	if g.srv.KeyCount(1) != 3 {
		t.Fatal("no key on the server")
	}
}

func TestDeleteDefaultsToNoAndNamesTheKey(t *testing.T) {
	h, g := console(t, "1")
	first := g.srv.Keys(1)[0]
	h.key("d")
	h.mustSee("Delete client key 1 of demo/web-shop?", first.PublicKey)
	h.key("enter") // the highlighted choice is No
	h.key("d", "esc")
	h.key("d", "n")
	if g.srv.KeyCount(1) != 2 {
		t.Fatal("a key was deleted without a yes")
	}
	h.key("d", "right", "enter")
	if ids := g.keyIDs(1); len(ids) != 1 || ids[0] != 2 {
		t.Fatalf("keys after delete: %v", ids)
	}
	h.mustSee("Deleted client key 1", "Client keys (1)")
}

// The delete acts on the key the user confirmed, even if the list changed
// under the dialog.
func TestDeleteActsOnConfirmedKey(t *testing.T) {
	h, g := console(t, "1")
	h.key("down", "d") // asks about key 2
	h.mustSee("Delete client key 2 of demo/web-shop?")
	p := h.m.top().(*projectScreen)
	p.keys.setKeys(append([]apiclient.ClientKey{{ID: 1}, {ID: 9}}, p.keys.keys()...))
	h.key("y")
	if ids := g.keyIDs(1); len(ids) != 1 || ids[0] != 1 {
		t.Fatalf("keys after delete: %v; want key 2 gone", ids)
	}
}

func TestKeyAlreadyGone(t *testing.T) {
	h, g := console(t, "1")
	g.api.DeleteClientKey(context.Background(), apiclient.ProjectID(1), 1) // deleted elsewhere
	h.key("d", "y")
	h.mustSee("Client key 1 of demo/web-shop is already gone: it was deleted elsewhere.", "Client keys (1)")
}

func TestRotate(t *testing.T) {
	h, g := console(t, "1")
	h.key("down", "R") // key 2: no CI/CD variable holds its DSN
	h.mustSee("New key 4 created in demo/web-shop. Delete old key 2?", "The new DSN, copied to the clipboard", "Send test event")
	if c := h.copied(); len(c) != 1 || !strings.Contains(c[0], g.srv.Keys(1)[2].PublicKey) {
		t.Fatalf("copied %v", c)
	}
	h.key("y")
	if ids := g.keyIDs(1); len(ids) != 2 || ids[0] != 1 || ids[1] != 4 {
		t.Fatalf("keys after rotate: %v", ids)
	}
	h.mustSee("Rotated: new key 4 replaces key 2", "which is deleted")
}

// Rotating the key whose DSN SENTRY_DSN holds: one question names the
// variable, the update comes before the old key's deletion, and a test
// event can be sent in between.
func TestRotateUpdatesVariableAndVerifies(t *testing.T) {
	h, g := console(t, "1")
	h.key("R")
	h.mustSay("Update its CI/CD variables?", "CI/CD variable SENTRY_DSN (all environments) holds the old key's DSN")
	if g.srv.KeyCount(1) != 3 {
		t.Fatal("no new key before the question")
	}
	h.key("y")
	h.mustSay("CI/CD variable SENTRY_DSN (all environments) holds the new DSN.", "Delete old key 1?")
	newKey := g.srv.Keys(1)[2]
	if v := g.srv.Variables(1)[0]; !strings.Contains(v.Value, newKey.PublicKey) || !v.Masked {
		t.Fatalf("variable %+v", v)
	}
	h.key("v")
	h.mustSay("The test event through the new DSN was accepted by ingestion (HTTP 200).", "Delete old key 1?")
	if g.srv.Envelopes(1) != 1 {
		t.Fatal("no event received")
	}
	h.key("y")
	h.mustSay("Rotated: new key 4 replaces key 1, which is deleted; SENTRY_DSN holds the new DSN.")
	if ids := g.keyIDs(1); len(ids) != 2 || ids[1] != 4 {
		t.Fatalf("keys %v", ids)
	}
}

// Declining the variables still offers the old key's deletion, saying what
// the variable holds; a failed update keeps the old key.
func TestRotateVariableDeclinedOrFailing(t *testing.T) {
	h, g := console(t, "1")
	h.key("R", "n")
	h.mustSay("Delete old key 1?", "CI/CD variable SENTRY_DSN (all environments) still holds the old DSN",
		"Deploys that read SENTRY_DSN (all environments) stop reporting once the old key is gone")
	h.key("n")
	h.mustSay("Both keys exist", "SENTRY_DSN (all environments) still holds the old DSN")
	if g.srv.Variables(1)[0].Value != "{{dsn:1}}" {
		t.Fatal("the variable changed")
	}

	g = demoGitLab(t)
	api := faulty(g.api)
	h = newHarness(t, Deps{API: api, Host: g.url, Project: "1"})
	api.fail("UpdateVariableValue", &apiclient.APIError{Kind: apiclient.ErrForbidden, StatusCode: 403, Method: "PUT", Path: "/api/v4/projects/1/variables/SENTRY_DSN"})
	h.key("R", "y")
	h.mustSay("Updating the CI/CD variable SENTRY_DSN (all environments) failed, so the old key is not deleted", "Both keys exist")
	if g.srv.KeyCount(1) != 3 {
		t.Fatal("a key was deleted")
	}
}

// A refused test event ends the rotation with both keys, as --verify does
// on the command line: the new DSN does not work yet.
func TestRotateRefusedTestEvent(t *testing.T) {
	g := demoGitLab(t)
	api := faulty(g.api)
	h := newHarness(t, Deps{API: api, Host: g.url, Project: "1"})
	h.key("down", "R")
	api.refuseEvents(401)
	h.key("v")
	h.mustSay("refused the test event (HTTP 401", "so the old key is not deleted", "Both keys exist")
	h.mustNotSee("Delete old key 2?")
	if g.srv.KeyCount(1) != 3 {
		t.Fatal("a key was deleted")
	}
}

// v on a key sends one test event after a question.
func TestVerifyKey(t *testing.T) {
	h, g := console(t, "1")
	h.key("v")
	h.mustSay("Send a test event with key 1 of demo/web-shop?", "recorded in the project")
	h.key("n")
	if g.srv.Envelopes(1) != 0 {
		t.Fatal("sent after No")
	}
	h.key("v", "y")
	h.mustSay("Key 1 of demo/web-shop: the test event was accepted by ingestion (HTTP 200).")
	g.api.DeleteClientKey(context.Background(), apiclient.ProjectID(1), 1)
	h.key("v", "y")
	h.mustSay("refused the test event (HTTP 401")
}

// After a rotation whose old key is kept, the status says so.
func TestRotateKeepOldSaysSo(t *testing.T) {
	h, g := console(t, "1")
	h.key("down", "R", "n")
	h.mustSay("Both keys exist: new key 4, old key 2 kept: d deletes it once its clients moved.")
	if g.srv.KeyCount(1) != 3 {
		t.Fatal("the old key was touched")
	}
}

// Press R (or n, d, a settings change) and leave before the answer: the
// result reaches the user on whatever screen is open.
func TestWriteResultsReachTheUserAfterEsc(t *testing.T) {
	h, g := console(t, "1")
	h.key("down")
	rotate := h.holdWrite("R") // the rotation is in flight
	h.key("esc")
	h.mustSee("Projects you maintain")
	h.run(rotate)
	h.mustSee("New key 4 created in demo/web-shop. Delete old key 2?", "http://glet_")
	h.key("y")
	h.mustSee("Rotated: new key 4 replaces key 2")
	if ids := g.keyIDs(1); len(ids) != 2 || ids[1] != 4 {
		t.Fatalf("keys %v", ids)
	}

	h, _ = console(t, "1")
	create := h.holdWrite("n")
	h.key("esc")
	h.run(create)
	h.mustSee("Created client key 4 in demo/web-shop.")

	h, _ = console(t, "1")
	h.key("d")
	del := h.holdWrite("y")
	h.key("esc")
	h.run(del)
	h.mustSee("Deleted client key 1 (glet_")

	h, _ = console(t, "1")
	h.key("tab", "a")
	disable := h.holdWrite("y")
	h.key("esc")
	h.run(disable)
	h.mustSee("Error tracking settings disabled for demo/web-shop.")
	// Reopened later, the project shows what the write did.
	h.filter("web")
	h.key("enter", "tab")
	h.mustSee("Active        no")
}

// A project reopened while its write is in flight gets the result too.
func TestReopenedProjectGetsTheResult(t *testing.T) {
	h, _ := console(t, "1")
	create := h.holdWrite("n")
	h.key("esc")
	h.filter("web")
	h.key("enter")
	h.mustSee("Client keys (2)")
	h.run(create)
	h.mustSee("Client keys (3)", "Created client key 4")
}

func TestOneCreateAtATime(t *testing.T) {
	h, g := console(t, "1")
	first := h.holdWrite("n")
	h.key("n")
	h.mustSee("already under way")
	h.run(first)
	if g.srv.KeyCount(1) != 3 {
		t.Fatalf("%d keys: two creates ran", g.srv.KeyCount(1))
	}
}

func TestFailedRequestLeavesScreen(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	h := newHarness(t, Deps{API: f, Host: g.url, Project: "1"})
	f.fail("CreateClientKey", errServer502)
	h.key("n")
	h.mustSee("HTTP 502", "press r to refresh the list before creating another", "Client keys (2)")
	f.fail("UpdateSettings", &apiclient.APIError{StatusCode: 403, Kind: apiclient.ErrInsufficientScope})
	h.key("tab", "a", "y")
	h.mustSee("lacks the api scope", "Active        yes")
	f.fail("ListClientKeys", &apiclient.APIError{StatusCode: 503, Kind: apiclient.ErrServer})
	h.key("r")
	h.key("tab")
	h.mustSee("HTTP 503", g.srv.Keys(1)[0].PublicKey)
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

func TestIntegratedUnavailable(t *testing.T) {
	h, _ := console(t, "4") // demo/on-prem: integrated error tracking is off here
	h.key("tab", "enter")
	h.mustSee("not available for this project on this GitLab", "not configured for this project yet")
}

// A slow, stale answer never overwrites a newer one.
func TestStaleResultsIgnored(t *testing.T) {
	h, _ := console(t, "1")
	p := h.m.top().(*projectScreen)
	reload := h.sendOnly(keyMsg("r")) // a newer load starts, not yet answered
	inFlight := p.keys.data.req
	h.send(keysLoadedMsg{id: inFlight - 1, keys: nil}) // an older answer arrives late
	h.send(keysLoadedMsg{id: 0, keys: nil})
	h.mustSee("Client keys (2)")
	h.run(reload)
	h.mustSee("Client keys (2)")
	if p.Busy() {
		t.Fatal("still busy after the current answer")
	}
}

// A key created while a refresh is in flight is not lost when the older
// list arrives.
func TestCreateDuringRefreshIsKept(t *testing.T) {
	h, _ := console(t, "1")
	reload := h.sendOnly(keyMsg("r"))
	stale := h.collect(reload) // read before the create
	h.key("n")
	h.mustSee("Client keys (3)")
	for _, m := range stale {
		h.send(m)
	}
	h.mustSee("Client keys (3)")
}

func TestKeysTabWarnsWhenTrackingIsOff(t *testing.T) {
	h, _ := console(t, "5") // demo/paused
	h.mustSee("Error tracking is disabled for this project")
	h, _ = console(t, "2")
	h.mustSee("not configured for this project yet (tab")
	h, _ = console(t, "1")
	h.mustNotSee("Error tracking is disabled", "not configured")
}

// "/" filters keys by id, public key or DSN; the header shows the position.
func TestKeysFilterAndPosition(t *testing.T) {
	g := newGitLab(t, mockserver.Options{ScaleKeys: 150}, mockserver.TokenMaintainer)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "1"})
	h.mustSee("Client keys (152)", "1/152")
	h.key("down", "down")
	h.mustSee("3/152")
	h.key("G")
	h.mustSee("152/152")
	pk := g.srv.Keys(1)[100].PublicKey
	h.key("/")
	h.mustSee("enter done", "esc clear") // filter mode: letters type
	h.mustNotSee("q quit")
	h.typeText(pk[5:15])
	h.mustSee("1/1", pk)
	h.key("enter") // leave the field, keep the filter
	h.key("enter") // show the key
	h.mustSee("Client key 102 of demo/web-shop")
	h.key("esc", "esc") // closes the box, then clears the filter
	h.mustSee("1/152")
	h.key("/")
	h.typeText("no such key")
	h.mustSee("No key matches the filter")
	h.key("esc")
	h.mustSee("Client keys (152)")
}

// The key view shows the DSN in full, in the one width every dialog has
// (issue 31: it used to widen the box to keep the DSN on one line): its
// lines, read in order, make the DSN, and none is its scheme alone.
func TestKeyViewShowsTheDSNInFull(t *testing.T) {
	h, g := console(t, "1")
	dsn := "http://" + g.srv.Keys(1)[0].PublicKey + "@" + strings.TrimPrefix(g.url, "http://") + "/errortracking/api/v1/projects/1"
	for _, w := range []int{120, 200} {
		h.resize(w, 30)
		h.key("enter")
		// The box's lines, less what is drawn beside it.
		lines := strings.Split(h.view(), "\n")
		left, right := -1, -1
		for _, l := range lines {
			if i := strings.Index(l, "│ Client key 1 of"); i >= 0 {
				left = len([]rune(l[:i]))
				r := []rune(l)
				for j := left + 1; j < len(r); j++ {
					if r[j] == '│' {
						right = j // the box is as wide as its DSN needs, where it can be
						break
					}
				}
			}
		}
		if left < 0 {
			t.Fatalf("no key view at %d columns:\n%s", w, h.view())
		}
		var joined strings.Builder
		for _, l := range lines {
			r := []rune(l)
			if len(r) <= right {
				continue
			}
			inner := strings.TrimSpace(string(r[left+1 : right]))
			if inner == "http://" {
				t.Fatalf("at %d columns the DSN breaks after its scheme:\n%s", w, h.view())
			}
			joined.WriteString(inner)
		}
		if !strings.Contains(joined.String(), dsn) {
			t.Fatalf("at %d columns the DSN is not shown in full:\n%s", w, h.view())
		}
		h.key("esc")
	}
}

func TestHostileServerTextIsSanitized(t *testing.T) {
	ts := hostileServer(t)
	c, _ := apiclient.New(ts, "fake-token-x", apiclienttest.WithRetries(0, 0))
	h := newHarness(t, Deps{API: c, Host: ts, Project: "1"})
	checkSafe(t, h.m.View().Content)
	h.mustSee("glet_") // integrated: it opens on its keys
	h.key("tab")
	checkSafe(t, h.m.View().Content)
	h.mustSee("Project name")
}

func TestLongDSNKeepsHostInView(t *testing.T) {
	h, g := console(t, "1")
	host := strings.TrimPrefix(g.url, "http://")
	// At 80 columns the public key identifies the key; a DSN cut to
	// "http://glet_…@127.0.0.1:39…" would not, so it is left to enter and c.
	h.resize(80, 24)
	h.mustSee(g.srv.Keys(1)[0].PublicKey)
	h.mustNotSee("http://glet_")
	h.resize(130, 24)
	h.mustSee("http://glet_…@" + host)
	h.resize(240, 24) // beside the details panel, the list has room for the DSN whole
	h.mustSee("http://" + g.srv.Keys(1)[0].PublicKey + "@" + host + "/errortracking/api/v1/projects/1")
}

// A key created while a list was in flight, then deleted before it
// arrived, does not come back with that list.
func TestCreatedThenDeletedDuringRefresh(t *testing.T) {
	h, g := console(t, "1")
	reload := h.sendOnly(keyMsg("r"))
	stale := h.collect(reload) // read before the create
	h.key("n")                 // key 4
	h.mustSee("Client keys (3)")
	h.key("G", "d", "y") // and deleted again
	h.mustSee("Deleted client key 4", "Client keys (2)")
	for _, m := range stale {
		h.send(m)
	}
	h.mustSee("Client keys (2)")
	if ids := g.keyIDs(1); len(ids) != 2 {
		t.Fatalf("server keys %v", ids)
	}
}

// On an instance whose integrated_error_tracking flag is off, the settings
// pane says errors are not collected, and switching integrated on says the
// server kept it off and why.
func TestIntegratedFlagOffInstance(t *testing.T) {
	g := newGitLab(t, mockserver.Options{NoIntegratedErrorTracking: true}, mockserver.TokenMaintainer)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "1"})
	h.mustSee("Client keys (2)")
	h.key("tab")
	h.mustSay("Neither integrated error tracking nor an external Sentry is in use")
	h.key("i", "y")
	h.mustSay("GitLab kept integrated error tracking off for demo/web-shop.", "Integrated error tracking is not available for this project on this GitLab")
}

// A message about one project goes when another project opens: the failed
// create on demo/on-prem is not shown in demo/mobile-app.
func TestMessagesBelongToTheirProject(t *testing.T) {
	g := demoGitLab(t)
	api := faulty(g.api)
	api.fail("CreateClientKey", &apiclient.APIError{Kind: apiclient.ErrIntegratedUnavailable, StatusCode: 404, Method: "POST", Path: "/api/v4/projects/4/error_tracking/client_keys", Message: "not available"})
	h := newHarness(t, Deps{API: api, Host: g.url, Project: "demo/on-prem"})
	h.key("n")
	h.mustSay("not available")
	h.key("esc")
	h.mustSay("not available") // still about the project just left
	h.filter("mobile")
	h.key("enter")
	h.mustSee("Client keys")
	h.mustNotSee("not available")
}

// A result reaching the user on another screen names its project; a new
// change clears what an earlier one said.
func TestResultElsewhereNamesTheProject(t *testing.T) {
	h, _ := console(t, "1")
	h.key("tab", "a")
	disable := h.holdWrite("y")
	h.key("esc")
	h.run(disable)
	h.mustSay("Error tracking settings disabled for demo/web-shop.")
	h.filter("paused")
	h.key("enter")
	h.mustNotSee("disabled for demo/web-shop")

	h, _ = console(t, "1")
	h.key("down", "R", "n") // both keys kept: a message about the rotation
	h.mustSay("Both keys exist")
	h.holdWrite("n")
	h.mustNotSee("Both keys exist")
}

// Clearing the keys filter keeps the selected key; the key's details copy
// its DSN with c; a project that failed to load offers no n.
func TestKeysFilterDetailsAndHelpAreTrue(t *testing.T) {
	h, g := console(t, "1")
	h.key("/")
	h.typeText(g.srv.Keys(1)[1].PublicKey[5:17])
	h.key("enter", "esc")
	p := h.m.top().(*projectScreen)
	if k, ok := p.keys.selected(); !ok || k.ID != 2 {
		t.Fatalf("selected %+v after clearing the filter", k)
	}
	h.key("enter")
	h.mustSee("Client key 2 of demo/web-shop", "c copy DSN")
	h.key("c")
	if c := h.copied(); len(c) != 1 || !strings.Contains(c[0], g.srv.Keys(1)[1].PublicKey) {
		t.Fatalf("copied %v", c)
	}
	h.mustSee("Client key 2 of demo/web-shop") // still open

	h, _ = console(t, "6") // not visible to the user: 404
	h.mustSee("Could not open the project")
	h.mustNotSee("n new")
}

// From 140 columns the selected key's details sit beside the list and follow
// the cursor; narrower, the list has the room.
func TestWideKeysShowTheSelectedKeyBeside(t *testing.T) {
	h, g := console(t, "1")
	h.resize(160, 30)
	ids := g.keyIDs(1)
	h.mustSee(fmt.Sprintf("Key %d", ids[0]), "DSN (c copies it)")
	h.key("down")
	h.mustSee(fmt.Sprintf("Key %d", ids[1]))
	h.mustNotSee(fmt.Sprintf("Key %d ", ids[0]))
	for _, l := range strings.Split(h.view(), "\n") {
		if w := ansi.StringWidth(l); w > 160 {
			t.Fatalf("a line is %d cells wide at 160 columns: %q", w, l)
		}
	}
	h.resize(120, 30)
	h.mustNotSee("DSN (c copies it)")
}

// The keys pane says where each key's DSN is used, once found, without
// holding up the list; F shows the project's findings with their fixes.
func TestKeysShowWhereTheirDSNIsUsed(t *testing.T) {
	h, _ := console(t, "demo/mobile/ios")
	h.mustSee("USED IN", "SENTRY_DSN")
	h.key("enter")
	h.mustSay("Used in:   SENTRY_DSN (all environments)")
	h.key("esc")
	h.key("F")
	h.mustSay("Findings for demo/mobile/ios: 1 error", "Error: OLD_SENTRY_DSN (environment staging) holds the DSN of a key that", "no longer exists", "Fix: set it to the DSN of a current key")
}

// The list does not wait for the variables: when they cannot be read the
// keys are listed all the same, the column says "?", and F says why.
func TestKeysListDoesNotWaitForUses(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	f.fail("ListVariables", &apiclient.APIError{StatusCode: 403, Kind: apiclient.ErrForbidden, Method: "GET", Path: "/api/v4/projects/1/variables"})
	h := newHarness(t, Deps{API: f, Host: g.url, Project: "demo/web-shop"})
	h.mustSee("Client keys (2)", "USED IN", "?")
	h.mustNotSee("SENTRY_DSN")
	h.key("F")
	h.mustSay("Where the keys' DSNs are used could not be read.")
	h.key("esc", "r")
	h.mustSee("SENTRY_DSN")
}

// D runs errtrack doctor's checks on the open project, off the UI, and
// shows each with its fix; no test event is sent.
func TestDoctorInTheConsole(t *testing.T) {
	h, g := console(t, "demo/paused")
	h.key("D")
	h.mustSay("Doctor for demo/paused: ", "ok    server: GitLab 17.5 answers", "settings: ", "fix: ", "No test event was sent")
	// ok, warn and fail in their meaning's colour, the words kept
	if raw := h.m.View().Content; !regexp.MustCompile(`\x1b\[[0-9;]*m(ok  |warn|fail)`).MatchString(raw) {
		t.Fatalf("the checks' states are not coloured:\n%q", raw)
	}
	if g.srv.Envelopes(5) != 0 {
		t.Fatal("the doctor sent an event")
	}
	h.key("esc")
	h2, _ := console(t, "demo/web-shop")
	h2.key("D")
	h2.mustSay("Doctor for demo/web-shop: ")
}

// The keys' ages: the first sighting of each key, exact for a key the
// console created; n records it.
func TestKeysShowTheirAge(t *testing.T) {
	g := demoGitLab(t)
	store := seen.Open(filepath.Join(t.TempDir(), "keys-seen.json"))
	var now time.Time
	deps := Deps{API: g.api, Host: g.url, Project: "1",
		KeysSeen: func(host string, p projectscope.Project, keys []int64) (map[int64]seen.Entry, error) {
			return store.Observe(host, p.ID, p.Path, keys, now)
		},
		KeyCreated: func(host string, p projectscope.Project, key int64) { _ = store.Created(host, p.ID, p.Path, key, now) }}
	now = testNow.Add(-72 * time.Hour)
	h := newHarness(t, deps)
	h.resize(160, 40)
	h.mustSee("First seen", "3 days ago, ")
	now = testNow
	h.key("n")
	h.mustSee("Created client key 4")
	h.key("r")
	h.mustSee("less than an hour ago", "(created by errtrack)")
	h.key("enter")
	h.mustSay("First seen: less than an hour ago")
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

// v on a key whose event a quota dropped (429) says so: not refused, no
// word of an inactive or deleted key.
func TestVerifyKeyRateLimited(t *testing.T) {
	g := demoGitLab(t)
	api := faulty(g.api)
	h := newHarness(t, Deps{API: api, Host: g.url, Project: "1"})
	api.refuseEvents(429)
	h.key("v", "y")
	h.mustSay("rate-limited the test event (HTTP 429)", "The key was not refused")
	h.mustNotSee("inactive or deleted")
}
