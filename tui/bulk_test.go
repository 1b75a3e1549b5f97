package tui

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/rotation"
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

// space marks projects on the list; ctrl+o offers the changes to them, each
// with its plan first: No changes nothing, yes changes exactly the plan,
// with a report the user can reopen.
func TestBulkEnableMarkedProjects(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url})
	h.mustSee("demo/mobile-app")
	h.filter("mobile-app")
	h.key("space")
	h.key("esc")
	h.filter("paused")
	h.key("space")
	h.key("esc")
	h.mustSee("2 marked", "● demo/mobile-app", "● demo/paused")
	h.mustNotSee("● demo/web-shop")
	h.key("space") // the cursor's project, the first, marked and unmarked
	h.mustSee("3 marked", "● demo/legacy-api")
	h.key("up", "space")
	h.mustSee("2 marked")
	h.mustNotSee("● demo/legacy-api")
	h.key("ctrl+o")
	h.mustSay("2 marked projects", "e  enable error tracking")
	h.key("e")
	h.mustSay("Enable error tracking in 2 of 2 marked projects?", "planned demo/mobile-app create integrated settings, enabled", "planned demo/paused enable")
	h.key("n")
	h.mustSay("Enabling error tracking: nothing was changed.")
	if settingsOf(t, g, 2) != nil || settingsOf(t, g, 5).Active {
		t.Fatal("No changed something")
	}
	h.key("ctrl+o", "e")
	h.mustSay("Enable error tracking in 2 of 2 marked projects?")
	h.key("y")
	h.mustSay("Enabling error tracking: done in 2 projects", "changed demo/mobile-app", "changed demo/paused")
	if s := settingsOf(t, g, 2); s == nil || !s.Active || !s.Integrated || !settingsOf(t, g, 5).Active {
		t.Fatal("the plan was not carried out")
	}
	if s := settingsOf(t, g, 1); !s.Active {
		t.Fatal("an unmarked project changed")
	}
	h.key("esc")
	h.mustNotSee("● ")
	h.key("ctrl+o") // no marks: the last report
	h.mustSay("Enabling error tracking: done in 2 projects")
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

// The variable is asked: a name GitLab would refuse is said in the box,
// and one that holds no key's DSN leaves nothing to do; the next question
// offers it again.
func TestBulkAsksTheVariable(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "demo/mobile"})
	h.key("ctrl+a", "ctrl+o", "r")
	h.mustSay("Variable: SENTRY_DSN", "enter", "takes SENTRY_DSN, or type another name")
	h.typeText("NOT A NAME") // replaces the name offered, not appended to it
	h.key("enter")
	h.mustSay("A variable's name is letters, digits and _ only.", "Variable: NOT A NAME")
	h.key("ctrl+u")
	h.typeText("OLD_SENTRY_DSN")
	h.key("enter")
	h.mustSay("Rotating the keys OLD_SENTRY_DSN holds: nothing to do in the marked projects.",
		"skipped demo/mobile/ios OLD_SENTRY_DSN does not hold the DSN of", "skipped demo/mobile/android no CI/CD variable OLD_SENTRY_DSN")
	h.key("esc", "ctrl+o")
	h.mustSay("(OLD_SENTRY_DSN?)")
	h.key("v")
	h.mustSee("Variable: OLD_SENTRY_DSN", "takes OLD_SENTRY_DSN")
	h.key("esc", "ctrl+o", "r", "enter") // the name offered
	h.mustSay("Rotating the keys OLD_SENTRY_DSN holds: nothing to do")
	h.key("esc")
	if g.srv.KeyCount(7) != 1 || g.srv.Envelopes(7) != 0 {
		t.Fatal("a question changed something")
	}
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

// A project that fails is reported as failed, and only it stays marked;
// the others' changes are made.
func TestBulkFailureReported(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	h := newHarness(t, Deps{API: f, Host: g.url})
	h.filter("mobile-app")
	h.key("space", "esc")
	h.filter("paused")
	h.key("space", "esc")
	f.fail("UpdateSettings", errServer502)
	h.key("ctrl+o", "e", "y")
	h.mustSay("Enabling error tracking: 1 of 2 projects failed", "failed demo/paused", "changed demo/mobile-app")
	if s := settingsOf(t, g, 2); s == nil || !s.Active || settingsOf(t, g, 5).Active {
		t.Fatal("the results are not the report's")
	}
	h.key("esc")
	h.mustSee("1 marked", "● demo/paused", "(ctrl+o then o on the projects list")
	h.mustNotSee("● demo/mobile-app")
	h.key("ctrl+o", "o")
	h.mustSay("Enabling error tracking: 1 of 2 projects failed")
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

// A fleet's rotation says each project's end; a project whose old DSN a
// group variable also holds is a stop the plan shows (no key made there);
// quitting mid-run names the projects changed, under way and not reached.
func TestBulkRotationOfAFleet(t *testing.T) {
	g := newGitLab(t, mockserver.Options{ScaleGroup: 5}, mockserver.TokenMaintainer)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "fleet"})
	h.mustSee("Projects of group fleet", "fleet/app-005", "(5)")
	h.mustNotSee("demo/")
	h.key("ctrl+a", "ctrl+o", "r", "enter")
	h.mustSay("in 4 of 5 marked projects?", "failed fleet/app-001 the old DSN is held by the CI/CD variable FLEET_SENTRY_DSN")
	h.runQueued(h.confirmRun())
	h.stepUntil("Rotating 1/4")
	for len(h.m.sh.bulk.running) < 2 {
		h.step()
	}
	n := h.m.BulkQuitNote()
	for _, want := range []string{"It had changed 1 project", "It was at 2 projects", "It had not reached 1 project", "It had failed in 1 project (fleet/app-001)", "goes on with the keys under way"} {
		if !strings.Contains(n, want) {
			t.Fatalf("on quitting: %q lacks %q", n, want)
		}
	}
	for len(h.m.sh.bulk.events) > 1 {
		h.step()
	}
	h.send(<-h.m.sh.bulk.events)
	h.dialogSays("Rotating the keys SENTRY_DSN holds: 1 of 5 projects failed",
		"failed fleet/app-001 the old DSN is held by the CI/CD variable FLEET_SENTRY_DSN",
		"rotate it on its own (open the project, R): the old key stays until the group's variables hold the new DSN")
	if n := h.m.BulkQuitNote(); n != "" {
		t.Fatalf("a finished run says %q on quitting", n)
	}
	if keys := g.srv.Keys(2001); len(keys) != 1 || keys[0].ID != 200001 {
		t.Fatalf("a key was made in the project the plan stopped: %+v", keys)
	}
	for id := int64(2002); id <= 2005; id++ {
		if keys := g.srv.Keys(id); len(keys) != 1 || keys[0].ID == 200000+id-2000 {
			t.Fatalf("project %d keys %+v", id, keys)
		}
	}
}

// Another variable of the project holding the old DSN stops its rotation
// before the old key goes, as the group command does without its flags;
// the report says how to choose in the console, not which flag to pass.
func TestBulkRotationLeavesOtherVariables(t *testing.T) {
	g := demoGitLab(t)
	ctx := context.Background()
	old := g.srv.Keys(1)[0]
	k, _, _, err := g.api.FindClientKey(ctx, apiclient.ProjectID(1), old.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := g.api.CreateVariable(ctx, apiclient.ProjectID(1), apiclient.NewVariable{Key: "DEPLOY_DSN", Value: k.DSN, Raw: true}); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, Deps{API: g.api, Host: g.url})
	h.filter("web-shop")
	h.key("space", "ctrl+o", "r", "enter")
	h.dialogSays("nothing to do", "failed demo/web-shop CI/CD variable DEPLOY_DSN (all environments) holds the old DSN too: open the project and rotate it there (R) to choose what they get. Nothing was changed here.")
	h.dialogLacks("--keep-variables")
	if ids := g.keyIDs(1); !slices.Contains(ids, 1) || len(ids) != 2 {
		t.Fatalf("web-shop keys %v: the plan's stop makes no key", ids)
	}
}

// --group shows only the group's projects (not its subgroups' unless
// asked); ctrl+g asks for another group, with or without subgroups, or
// none for all the projects you maintain.
func TestScopeAskedForAGroup(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "demo/mobile"})
	h.mustSee("Projects of group demo/mobile on", "demo/mobile/ios", "demo/mobile/android", "demo/mobile/kiosk", "(3)", "projects of demo/mobile │")
	h.mustNotSee("demo/web-shop", "demo/paused", "subgroups")
	h.key("ctrl+g")
	h.mustSee("Show the projects of which group?", "Group: demo/mobile", "[ ] with its subgroups")
	h.key("ctrl+u")
	h.typeText("demo")
	h.key("tab")
	h.mustSee("[x] with its subgroups")
	h.key("enter")
	h.mustSee("Projects of group demo and its subgroups", "demo/web-shop", "demo/mobile/ios", "(8)")
	h.key("ctrl+g", "tab", "enter")
	h.mustSee("Projects of group demo on", "demo/web-shop", "(5)")
	h.mustNotSee("demo/mobile/ios")
	h.key("ctrl+g", "ctrl+u")
	h.typeText("no such group")
	h.key("enter")
	h.mustSay("is not a group path")
	h.key("ctrl+u", "enter")
	h.mustSee("Projects you maintain", "demo/mobile/ios", "(9)")
	h.mustNotSee("demo/mobile/kiosk")
	// From all projects, the question starts at the selected one's group.
	h.filter("android")
	h.key("ctrl+g")
	h.mustSee("Group: demo/mobile", "[x] with its subgroups")
	h.key("esc")
	h.mustSee("Projects you maintain")
}

// A project the user does not maintain is shown dimmed with their role,
// and neither marked nor opened: every call there would be refused.
func TestNotMaintainedProjectsStayClosed(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "demo/mobile"})
	h.filter("kiosk")
	h.key("space")
	h.mustSay("demo/mobile/kiosk: you are a Developer here, not a Maintainer")
	h.mustNotSee("marked")
	h.key("enter")
	h.mustSay("you are a Developer here", "does not open here")
	h.mustSee("Projects of group demo/mobile")
	if len(h.m.stack) != 1 {
		t.Fatal("a project the user does not maintain was opened")
	}
}

// dialogText is the open dialog's title and lines, unwrapped.
func (h *harness) dialogText() string {
	h.t.Helper()
	if len(h.m.dialogs) == 0 {
		h.t.Fatalf("no dialog open:\n%s", h.view())
	}
	d := h.m.dialogs[len(h.m.dialogs)-1]
	table, _ := reportTable(NewStyles(true, true), d.table, 200, 0) // wide: a row a line
	for i, l := range table {
		table[i] = ansi.Strip(l)
	}
	// and each row whole, as enter on it shows it
	for _, r := range d.table {
		table = append(table, r.result+" "+r.project+" "+r.what)
	}
	return d.title + "\n" + strings.Join(append(table, d.body...), "\n")
}

// dialogSays checks the open dialog's own lines (its box wraps them), a
// table's columns read as one space apart.
func (h *harness) dialogSays(want ...string) {
	h.t.Helper()
	text := strings.Join(strings.Fields(h.dialogText()), " ")
	for _, w := range want {
		if !strings.Contains(text, strings.Join(strings.Fields(w), " ")) {
			h.t.Fatalf("the dialog does not say %q:\n%s", w, text)
		}
	}
}

func (h *harness) dialogLacks(bad string) {
	h.t.Helper()
	if text := h.dialogText(); strings.Contains(text, bad) {
		h.t.Fatalf("the dialog says %q:\n%s", bad, text)
	}
}

// A bulk change that ends while one of its projects is open shows there:
// the enabled settings at once, the first client key a create made.
func TestBulkChangeReachesTheOpenProject(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url})
	h.mustSee("demo/mobile-app")
	for _, p := range []string{"paused", "mobile-app"} {
		h.filter(p)
		h.key("space", "esc")
	}
	h.key("ctrl+o", "e")
	h.mustSay("Enable error tracking in 2 of 2 marked projects?")
	h.advance(gracePeriod)
	starts := h.collect(h.sendOnly(keyMsg("y")))
	// The run starts once paused is open, as it was before the change.
	h.filter("paused")
	h.key("enter")
	h.mustSee("Settings (inactive)")
	for _, start := range starts {
		h.send(start)
	}
	h.key("esc") // the report
	h.mustSee("Settings (active)")
	if s := settingsOf(t, g, 5); s == nil || !s.Active {
		t.Fatal("paused was not enabled")
	}
	h.key("esc")
	h.filter("mobile-app")
	h.key("enter")
	h.mustSee("Settings (active)", "Client keys (1)")
}

// A group named by its ID is shown by its path once the server names it,
// and the ctrl+g question starts at that path.
func TestGroupByIDShownByPath(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "101"})
	h.mustSee("Projects of group demo/mobile on", "demo/mobile/ios", "(3)", "projects of demo/mobile │")
	h.mustNotSee("group 101")
	h.key("ctrl+g")
	h.mustSee("Group: demo/mobile")
}

// A plan or report taller than the terminal scrolls with the arrows, pgup,
// pgdn, g and G, saying how much is above and below; failures come first;
// the buttons stay in view and answer as before.
func TestLongPlanScrolls(t *testing.T) {
	g := newGitLab(t, mockserver.Options{ScaleGroup: 30}, mockserver.TokenMaintainer)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "fleet"})
	h.resize(80, 24)
	h.mustSee("fleet/app-030") // newest first, as GitLab lists a group
	h.key("ctrl+a", "ctrl+o", "d")
	h.mustSee("Disable error tracking in 30 of 30 marked projects?", "more lines (↓/pgdn)", "No", "Go")
	h.mustSay("planned fleet/app-001 disable")
	h.mustNotSee("fleet/app-030", "(↑/pgup)")
	h.key("G")
	h.mustSee("more lines (↑/pgup)", "Go")
	h.mustSay("planned fleet/app-030 disable")
	h.mustNotSee("fleet/app-001 ", "(↓/pgdn)")
	h.key("pgup")
	h.mustSee("(↑/pgup)", "(↓/pgdn)")
	h.key("g")
	h.mustSay("fleet/app-001 disable")
	h.key("y")
	h.mustSay("Disabling error tracking: done in 30 projects")
	if s := settingsOf(t, g, 2030); s == nil || s.Active {
		t.Fatal("the last project of the plan was not disabled")
	}
}

// The help scrolls on a short terminal instead of cutting its end.
func TestHelpScrolls(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url})
	h.resize(80, 16)
	h.mustSee("demo/web-shop")
	h.key("?")
	h.mustSee("Keys here", "more lines (↓/pgdn)")
	h.mustNotSee("Mouse")
	h.key("G")
	h.mustSee("Mouse", "Shift+drag", "(↑/pgup)")
	h.key("esc")
	h.mustSee("demo/web-shop")
	h.key("?")
	h.mustSee("Keys here") // opens at its top again
}

// Marks outside the group the list changes to are dropped: a bulk change
// acts only on projects the user sees marked.
func TestMarksFollowTheScope(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url})
	h.filter("web-shop")
	h.key("space", "esc")
	h.filter("ios")
	h.key("space", "esc")
	h.mustSee("2 marked")
	h.key("ctrl+g", "ctrl+u")
	h.typeText("demo/mobile")
	h.key("enter")
	h.mustSee("Projects of group demo/mobile", "1 marked", "● demo/mobile/ios")
	h.key("ctrl+o")
	h.mustSay("1 marked project")
}

// While a change to marked projects is at a project, the user's own
// rotation there is refused (both would make a key); once the run ended
// there, it starts. Whichever came first keeps the project.
func TestOwnRotationWaitsForTheBulkRunAtItsProject(t *testing.T) {
	g := newGitLab(t, mockserver.Options{ScaleGroup: 3}, mockserver.TokenMaintainer)
	led := testRotations(t, g.url)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "fleet", Rotations: led})
	h.key("ctrl+a", "ctrl+o", "r", "enter")
	h.mustSay("in 2 of 3 marked projects?")
	h.runQueued(h.confirmRun())
	for len(h.m.sh.bulk.running) == 0 {
		h.step()
	}
	var at string
	for i := range h.m.sh.bulk.running {
		at = h.m.sh.bulk.plan.Items[i].Project.Path
	}
	h.filter(at)
	h.key("enter")
	h.mustSee("Client keys (")
	h.key("R")
	h.mustSay("Rotating the keys SENTRY_DSN holds is at " + at + " (its key creation")
	if len(h.m.sh.pending) != 0 {
		t.Fatal("the user's rotation started while the run was at the project")
	}
	for h.m.sh.bulk != nil {
		h.send(<-h.m.sh.bulk.events)
	}
	h.key("esc", "r") // the report closed; the keys the run made
	h.key("R")
	h.mustNotSee("is at " + at)
	h.mustSee("New key", "created in "+at)
}

// A change to marked projects leaves out a project where the user's own
// change holds what it needs (a key being created there), and goes ahead
// where the user's change holds something else (its settings).
func TestBulkRunLeavesOutWhatTheUsersChangeHolds(t *testing.T) {
	g := newGitLab(t, mockserver.Options{ScaleGroup: 3}, mockserver.TokenMaintainer)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "fleet", Rotations: testRotations(t, g.url)})
	h.filter("fleet/app-002")
	h.key("enter")
	h.mustSee("Client keys (")
	create := h.holdWrite("n")
	h.key("esc")
	h.filter("fleet/app-003")
	h.key("enter")
	h.mustSee("Settings (")
	h.key("tab", "a") // disable, asked
	settings := h.holdWrite("y")
	h.key("esc", "esc")
	h.key("ctrl+a", "ctrl+o", "r", "enter")
	h.mustSay("in 2 of 3 marked projects?")
	h.runQueued(h.confirmRun())
	for h.m.sh.bulk != nil {
		h.send(<-h.m.sh.bulk.events)
	}
	h.dialogSays("failed fleet/app-002 not started: your own change to this project was under way", "changed fleet/app-003")
	h.run(create)
	h.run(settings)
}
