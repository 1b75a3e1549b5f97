package tui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/internal/rotation"

	tea "charm.land/bubbletea/v2"
	"github.com/errtrack/errtrack/apiclient"
)

func settingsOf(t *testing.T, g gitlab, id int64) *apiclient.Settings {
	t.Helper()
	s, _, err := g.api.GetSettings(context.Background(), apiclient.ProjectID(id))
	if err != nil {
		return nil
	}
	return s
}

// allKeys is every demo project's key IDs, to tell what a change touched.
func allKeys(g gitlab) map[int64][]int64 {
	out := map[int64][]int64{}
	for id := int64(1); id <= 9; id++ {
		out[id] = g.keyIDs(id)
	}
	return out
}

// confirmRun answers y to the plan on screen and returns the run's begun
// message undelivered: the run starts when the test sends it (h.send runs
// it to its end).
func (h *harness) confirmRun() bulkBegunMsg {
	h.t.Helper()
	h.advance(gracePeriod)
	for _, start := range h.collect(h.sendOnly(keyMsg("y"))) {
		if _, ok := start.(startBulkMsg); !ok {
			h.t.Fatalf("y did not start the bulk change: %T", start)
		}
		for _, msg := range h.collect(h.sendOnly(start)) {
			if begun, ok := msg.(bulkBegunMsg); ok {
				return begun
			}
			h.send(msg)
		}
	}
	h.t.Fatal("the run did not begin")
	return bulkBegunMsg{}
}

// runQueued delivers begun and lets the run go to its end, its events
// queued, undelivered: step delivers them one at a time.
func (h *harness) runQueued(begun bulkBegunMsg) {
	h.t.Helper()
	b, ok := h.sendOnly(begun)().(tea.BatchMsg)
	if !ok || len(b) != 2 {
		h.t.Fatalf("the begun run is not the run and its wait: %T", b)
	}
	b[0]() // the run, to its end
}

// stepUntil steps until the screen says text.
func (h *harness) stepUntil(text string) {
	h.t.Helper()
	for !strings.Contains(h.view(), text) {
		h.step()
	}
}

// step delivers the run's next queued event without its follow-ups.
func (h *harness) step() {
	h.t.Helper()
	select {
	case msg := <-h.m.sh.bulk.events:
		h.sendOnly(msg)
	default:
		h.t.Fatal("no event queued")
	}
}

// errtrack --group demo --include-subgroups lists the group's projects,
// the ones the user does not maintain dimmed with their role and never
// marked; a bulk rotation asks the variable, shows the rotation plan per
// project with the skips, changes nothing on No, and on yes rotates
// exactly the planned projects, a few at once, saying how far it is and
// reporting wherever the user is.
func TestBulkRotateInGroupScope(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "demo", Subgroups: true})
	h.mustSee("Projects of group demo and its subgroups", "demo/mobile/kiosk", "not a Maintainer (Developer)", "projects of demo + subgroups")
	before := allKeys(g)
	h.key("ctrl+a")
	h.mustSee("7 marked")
	h.mustNotSee("● demo/mobile/kiosk")
	h.key("ctrl+o", "r")
	h.mustSee("Rotate the key which variable holds?", "Variable: SENTRY_DSN")
	h.key("enter")
	// The user is no Owner of the groups: their variables are unknown, and
	// only the user can say the old keys go anyway.
	h.mustSay("Rotate also in 2 projects whose groups' variables are unknown?", "The CI/CD variables of groups demo, demo/mobile could not be read", "demo/mobile/ios, demo/web-shop")
	h.key("y")
	h.mustSay("Rotate the keys SENTRY_DSN holds in 2 of 7 marked projects?", "PROJECT TARGET CHANGES THEN",
		"planned demo/web-shop new key for 1 SENTRY_DSN → new DSN old key deleted")
	h.dialogSays("planned demo/web-shop rotate key 1", "planned demo/mobile/ios rotate key 901",
		"skipped demo/mobile-app no CI/CD variable SENTRY_DSN", "skipped demo/mobile/android no CI/CD variable SENTRY_DSN")
	h.key("n")
	if !reflect.DeepEqual(allKeys(g), before) {
		t.Fatalf("No changed keys: %v, was %v", allKeys(g), before)
	}
	h.key("ctrl+o", "r", "enter")
	h.mustSay("whose groups' variables are unknown?")
	h.key("y")
	h.mustSay("in 2 of 7 marked projects?")
	begun := h.confirmRun()
	h.mustSay("Rotating 0/2")
	// The user opens another project meanwhile: progress and report reach
	// them there.
	h.filter("legacy")
	h.key("enter")
	h.mustSee("demo/legacy-api", "Settings")
	h.runQueued(begun)
	h.stepUntil("Rotating 1/2: demo/")
	h.stepUntil("Rotating 2/2: demo/")
	h.send(<-h.m.sh.bulk.events)
	h.mustSay("Rotating the keys SENTRY_DSN holds: done in 2 projects", "changed demo/web-shop", "changed demo/mobile/ios", "skipped demo/mobile-app")
	web, ios := g.keyIDs(1), g.keyIDs(7)
	if slices.Contains(web, 1) || len(web) != 2 || slices.Contains(ios, 901) || len(ios) != 1 {
		t.Fatalf("web-shop keys %v, ios keys %v", web, ios)
	}
	for _, id := range []int64{2, 3, 4, 5, 8, 9} {
		if !slices.Equal(g.keyIDs(id), before[id]) {
			t.Fatalf("project %d was not planned and changed: %v", id, g.keyIDs(id))
		}
	}
	newKey := g.srv.Keys(7)[0]
	if v := g.srv.Variables(7); !strings.Contains(v[0].Value, newKey.PublicKey) {
		t.Fatalf("SENTRY_DSN does not hold the new key's DSN: %+v", v[0])
	}
	h.key("esc", "esc")
	h.mustSee("Projects of group demo")
	h.mustNotSee("● ")
	h.key("ctrl+o") // no marks: the report again
	h.mustSay("Rotating the keys SENTRY_DSN holds: done in 2 projects")
}

// A test event per marked project, with the DSN the variable holds; one
// refused is a failure of that project, which stays marked.
func TestBulkTestEvents(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	h := newHarness(t, Deps{API: f, Host: g.url, Group: "demo", Subgroups: true})
	h.key("ctrl+a", "ctrl+o", "v", "enter")
	h.mustSay("Send test events with the DSNs SENTRY_DSN holds in 2 of 7 marked", "planned demo/web-shop send a test event with the DSN of key 1")
	h.key("y")
	h.mustSay("done in 2 projects", "demo/web-shop        Key 1: the test event was accepted by", "demo/mobile/ios      Key 901: the test event was accepted by")
	if g.srv.Envelopes(1) != 1 || g.srv.Envelopes(7) != 1 || g.srv.Envelopes(2) != 0 {
		t.Fatalf("events: web-shop %d, ios %d, mobile-app %d", g.srv.Envelopes(1), g.srv.Envelopes(7), g.srv.Envelopes(2))
	}
	h.key("esc")
	h.mustNotSee("● ")
	f.refuseEvents(403)
	h.key("ctrl+a", "ctrl+o", "v", "enter", "y")
	h.mustSay("2 of 7 projects failed", "failed      demo/web-shop")
	h.key("esc")
	h.mustSee("2 marked", "● demo/web-shop", "● demo/mobile/ios")
	h.mustSay("The ones that failed stay marked")
	// With marks, ctrl+o offers the changes, and the last report too.
	h.key("ctrl+o")
	h.mustSay("o  show the last report again")
	h.key("o")
	h.dialogSays("2 of 7 projects failed", "failed      demo/mobile/ios")
}

// A plan asked for while another was being read replaces it: the first
// answer is dropped, not shown as a question.
func TestBulkStalePlanDropped(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "demo/mobile"})
	h.key("ctrl+a", "ctrl+o")
	plan := func(k string) tea.Cmd {
		var cmd tea.Cmd
		for _, msg := range h.collect(h.sendOnly(keyMsg(k))) {
			cmd = h.sendOnly(msg)
		}
		return cmd
	}
	first := plan("e")
	if !h.m.busy() {
		t.Fatal("a plan being read does not show")
	}
	h.key("ctrl+o")
	second := plan("d")
	h.run(first)
	h.mustNotSee("Enable error tracking in")
	h.run(second)
	h.mustSay("Disable error tracking in 1 of 2 marked projects?", "planned demo/mobile/ios disable")
}

// A rotation the console could not finish goes on, next time, with the
// key it created (the ledger the commands share): no project gets a second
// new key, and the group rotation is finished once it ran through.
func TestBulkRotationGoesOnWithItsKey(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	led := testRotations(t, g.url)
	h := newHarness(t, Deps{API: f, Host: g.url, Group: "demo/mobile", Rotations: led})
	f.fail("DeleteClientKey", errServer502)
	h.key("ctrl+a", "ctrl+o", "r", "enter", "y", "y")
	h.mustSay("1 of 2 projects failed", "failed      demo/mobile/ios")
	ids := g.keyIDs(7)
	if len(ids) != 2 || !slices.Contains(ids, 901) {
		t.Fatalf("ios keys %v after the lost delete", ids)
	}
	created := ids[0] + ids[1] - 901
	if open := led.OpenRotations(7); len(open) != 1 || open[0].NewKeyID != created || open[0].FrontEnd != rotation.FrontEndConsoleBulk {
		t.Fatalf("the ledger holds %+v, want key %d open", open, created)
	}
	h.key("esc")
	h.mustSee("● demo/mobile/ios")
	h.key("ctrl+o", "r", "enter", "y")
	h.dialogSays("planned demo/mobile/ios go on with key")
	h.key("y")
	h.mustSay("done in 1 project")
	if ids := g.keyIDs(7); !slices.Equal(ids, []int64{created}) {
		t.Fatalf("ios keys %v, want only %d", ids, created)
	}
	if open := led.OpenRotations(7); len(open) != 0 {
		t.Fatalf("the rotation is still open: %+v", open)
	}
}

// A console bulk rotation over a group of Sentry-backed projects (mock
// server --scale-sentry), in process: the plan and the run resolve the
// projects' Sentry projects in the group layer's workers at once (go test
// -race), and each project ends with one new key its SENTRY_DSN holds.
func TestBulkRotationOfSentryBackedProjects(t *testing.T) {
	const n = 4
	var ss *mocksentry.Server
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ss.ServeHTTP(w, r) }))
	t.Cleanup(ts.Close)
	ss = mocksentry.New(mocksentry.Options{PublicURL: ts.URL, ScaleProjects: n})
	g := newGitLab(t, mockserver.Options{SentryURL: ts.URL, ScaleSentry: n,
		SentryDSNOf: func(slug string) string { return ss.DSN("demo", slug, "Default") }}, mockserver.TokenMaintainer)
	w := sentryWorld{g: g, ss: ss, ts: ts, url: ts.URL}
	old := map[string]string{}
	for i := 1; i <= n; i++ {
		old[mocksentry.FleetSlug(i)] = ss.Keys("demo", mocksentry.FleetSlug(i))[0].Public
	}
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "sentry-fleet", Sentry: w.resolver(mocksentry.TokenAdmin)})
	h.mustSee("Projects of group sentry-fleet", "sentry-fleet/app-004")
	h.key("ctrl+a", "ctrl+o", "r", "enter")
	h.mustSay("in 4 of 4 marked projects?")
	h.runQueued(h.confirmRun())
	for len(h.m.sh.bulk.events) > 1 {
		h.step()
	}
	h.send(<-h.m.sh.bulk.events)
	h.dialogSays("done in 4 projects")
	for i := 1; i <= n; i++ {
		slug := mocksentry.FleetSlug(i)
		keys := ss.Keys("demo", slug)
		if len(keys) != 1 || keys[0].Public == old[slug] {
			t.Fatalf("%s keys after the rotation: %+v", slug, keys)
		}
		if v := g.srv.Variables(int64(2100 + i)); len(v) != 1 || !strings.Contains(v[0].Value, keys[0].Public) {
			t.Fatalf("%s: SENTRY_DSN does not hold the new key's DSN", slug)
		}
	}
}
