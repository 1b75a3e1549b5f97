package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
	"github.com/errtrack/errtrack/apiclient/mockserver"
)

func TestProjectsListAndOpen(t *testing.T) {
	h, _ := console(t, "")
	h.mustSee("Projects you maintain", "demo/web-shop", "Web Shop", "demo/legacy-api", "@demo-maintainer")
	h.key("down", "enter") // the list is in the server's order (by path)
	h.mustSee("demo/mobile-app", "Settings (none)")
	h.key("esc")
	h.mustSee("Projects you maintain")
}

func TestProjectsEmptyAndError(t *testing.T) {
	g := newGitLab(t, mockserver.Options{Seed: "empty"}, mockserver.TokenMaintainer)
	h := newHarness(t, Deps{API: g.api, Host: g.url})
	h.mustSee("You maintain no projects here")

	d := demoGitLab(t)
	f := faulty(d.api)
	f.fail("ListProjects", &apiclient.APIError{StatusCode: 503, Kind: apiclient.ErrServer})
	h = newHarness(t, Deps{API: f, Host: d.url})
	h.mustSee("Could not load projects", "HTTP 503")
	if n := h.count("HTTP 503"); n != 1 {
		t.Fatalf("the error is shown %d times", n)
	}
	h.key("ctrl+r")
	h.mustSee("demo/web-shop")
}

// The screen says "type to filter, or type a project ID or group/project
// path": whatever is typed is that text, letters that are keys elsewhere
// (q, g, G, j, k, r) included.
func TestProjectsTypeWhatTheScreenPromises(t *testing.T) {
	for _, text := range []string{"qa/tests", "group/web-shop", "k8s/app", "42", "GjKr/x"} {
		h, _ := console(t, "")
		h.filter(text)
		if got := h.m.stack[0].(*projectsScreen).filter.input.Value(); got != text {
			t.Fatalf("typed %q, the filter holds %q", text, got)
		}
		if h.sentType("QuitMsg") {
			t.Fatalf("typing %q quit", text)
		}
		if strings.Contains(text, "/") || text == "42" {
			h.mustSee("→ open " + text)
		}
	}
}

func TestProjectsTypeToFilter(t *testing.T) {
	h, _ := console(t, "")
	h.filter("leg")
	h.mustSee("demo/legacy-api")
	h.mustNotSee("demo/web-shop", "demo/mobile-app")
	h.key("enter")
	h.mustSee("demo/legacy-api", "Settings (active)")
}

func TestProjectsTypedPathAndID(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	h := newHarness(t, Deps{API: f, Host: g.url})
	h.filter("demo/paused")
	h.mustSee("→ open demo/paused")
	h.key("enter")
	h.mustSee("demo/paused", "Settings (inactive)", "Client keys (1)")
	if f.count("GetProject") != 1 || f.count("ListClientKeys") != 1 {
		t.Fatal("project, settings and keys not loaded together on open")
	}
	h.key("esc", "esc")
	h.filter("3")
	h.mustSee("→ open 3")
	h.key("enter")
	// Opened by ID, known by its path (GET /projects/3). It reports to a
	// Sentry this console does not reach: no count of GitLab's keys.
	h.mustSee(" demo/legacy-api", "Settings (active)", "Client keys")
	h.mustNotSee(" 3 │", "Client keys (")
}

func TestProjectsBadTypedPath(t *testing.T) {
	h, _ := console(t, "")
	h.filter("a//")
	h.key("enter")
	h.mustSee("is not a project")
}

func TestProjectNotFound(t *testing.T) {
	h, _ := console(t, "")
	h.filter("private/secret")
	h.key("enter")
	h.mustSee("Could not open the project", "Project not found")
	if n := h.count("Project not found"); n != 1 {
		t.Fatalf("the error shows %d times", n)
	}
}

func TestProjectsRecentFirst(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Recent: []RecentProject{{ID: 3, Path: "demo/legacy-api"}}})
	v := h.view()
	if strings.Index(v, "demo/legacy-api") > strings.Index(v, "demo/web-shop") {
		t.Fatalf("recent project not first:\n%s", v)
	}
	h.mustSee("Legacy API  (recent)")
	if strings.Count(v, "demo/legacy-api") != 1 {
		t.Fatal("recent project listed twice")
	}
}

// A project joins the recent list only once it opened, by ID and path,
// never twice; ctrl+x forgets one.
func TestRecentProjects(t *testing.T) {
	g := demoGitLab(t)
	var opened []RecentProject
	var forgot []RecentProject
	h := newHarness(t, Deps{API: g.api, Host: g.url,
		ProjectOpened: func(_ string, p RecentProject) { opened = append(opened, p) },
		ForgetRecent:  func(_ string, p RecentProject) { forgot = append(forgot, p) },
	})
	h.filter("nope/nothing")
	h.key("enter")
	h.mustSee("Project not found")
	if len(opened) != 0 {
		t.Fatalf("a project that did not open was recorded: %v", opened)
	}
	h.key("esc", "esc")
	h.filter("4")
	h.key("enter")
	h.mustSee(" demo/on-prem")
	h.key("esc", "esc")
	h.filter("demo/on-prem")
	h.key("enter")
	h.key("esc", "esc")
	if len(opened) != 2 || opened[0] != (RecentProject{4, "demo/on-prem"}) || opened[1] != opened[0] {
		t.Fatalf("recorded %v", opened)
	}
	h.mustSee("On Prem  (recent)")
	if n := h.count("demo/on-prem"); n != 1 {
		t.Fatalf("demo/on-prem listed %d times", n)
	}
	h.key("ctrl+x")
	h.mustSee("Removed demo/on-prem from the recent projects")
	h.mustNotSee("(recent)")
	if len(forgot) != 1 || forgot[0].ID != 4 {
		t.Fatalf("forgot %v", forgot)
	}
}

func TestProjectsLoadMoreOnScroll(t *testing.T) {
	g := newGitLab(t, mockserver.Options{ScaleProjects: 115}, mockserver.TokenMaintainer)
	f := faulty(g.api)
	h := newHarness(t, Deps{API: f, Host: g.url})
	h.mustSee("(50 loaded)")
	if f.count("ListProjects") != 1 {
		t.Fatalf("%d pages fetched before scrolling", f.count("ListProjects"))
	}
	for i := 0; i < 30; i++ {
		h.key("down")
	}
	h.mustSee("(100 loaded)")
	h.key("end", "end")                       // loads the last page
	h.mustSee("(124)", "scale/project-00115") // 115 scale projects and the 9 the demo user maintains
}

// While the list is incomplete, typing asks the server too, once typing
// stops (the debounce runs on the console's clock).
func TestProjectsServerSearchWhenIncomplete(t *testing.T) {
	g := newGitLab(t, mockserver.Options{ScaleProjects: 115}, mockserver.TokenMaintainer)
	f := faulty(g.api)
	h := newHarness(t, Deps{API: f, Host: g.url})
	h.filter("0110")
	h.mustNotSee("scale/project-00110") // not loaded yet
	if !h.m.top().Busy() {
		t.Fatal("no search scheduled")
	}
	pages := f.count("ListProjects")
	h.advance(searchDebounce / 2)
	if f.count("ListProjects") != pages {
		t.Fatal("searched before typing stopped")
	}
	h.advance(searchDebounce)
	h.mustSee("scale/project-00110")
	if f.count("ListProjects") != pages+1 {
		t.Fatalf("%d searches for one stop in typing", f.count("ListProjects")-pages)
	}
}

// Back from a project opened through the filter, the whole list shows, the
// cursor on the project: typing starts a new filter.
func TestBackShowsTheWholeListOnTheProject(t *testing.T) {
	h, _ := console(t, "")
	h.filter("web")
	h.key("enter")
	h.mustSee("Client keys (2)")
	h.key("esc")
	h.mustSee("demo/legacy-api", "demo/web-shop", "demo/mobile-app")
	if it, ok := h.m.top().(*projectsScreen).selected(); !ok || it.path != "demo/web-shop" {
		t.Fatalf("cursor on %+v", it)
	}
	h.filter("pau")
	if f := h.m.top().(*projectsScreen).filter.input.Value(); f != "pau" {
		t.Fatalf("filter %q", f)
	}
}

// The case: down to legacy-api, open, back: it moved to the top as
// recent, and the cursor went with it, so enter opens it again.
func TestBackKeepsTheCursorOnTheProject(t *testing.T) {
	h, _ := console(t, "")
	h.key("down")
	it, _ := h.m.top().(*projectsScreen).selected()
	h.key("enter")
	h.mustSee("Client keys")
	h.key("esc")
	if got, _ := h.m.top().(*projectsScreen).selected(); got.path != it.path {
		t.Fatalf("cursor on %q, came back from %q", got.path, it.path)
	}
	h.key("enter")
	h.mustSee(it.path)
}

// Opening what is typed comes after the real matches, and the header says
// how many match.
func TestTypedRowAfterMatches(t *testing.T) {
	h, _ := console(t, "")
	h.filter("demo/web")
	if it, ok := h.m.top().(*projectsScreen).selected(); !ok || !strings.HasPrefix(it.path, "demo/") {
		t.Fatalf("first row %+v", it)
	}
	h.mustSee("1 match of")
	h.mustSee("→ open demo/web")
}

// The help bar says what keys do here: on the list, / filters and q
// quits; in the filter, letters type and esc ends it.
func TestProjectsHelpBarIsTrue(t *testing.T) {
	h, _ := console(t, "")
	h.mustSee("↑/↓ move", "/ filter", "r refresh", "? help", "q quit")
	h.filter("web")
	h.mustSee("enter open", "↑/↓ move", "esc end filter", "ctrl+r refresh", "? help", "ctrl+c quit")
	h.mustNotSee("q quit", "/ filter")
}

func TestProjectsHostileNames(t *testing.T) {
	ts := hostileServer(t)
	c, _ := apiclient.New(ts, "fake-token-x", apiclienttest.WithRetries(0, 0))
	h := newHarness(t, Deps{API: c, Host: ts})
	checkSafe(t, h.m.View().Content)
	h.mustSee("grp/shop")
}

func TestProjectsLoadingState(t *testing.T) {
	g := demoGitLab(t)
	m := New(Deps{API: g.api, Host: "https://h"})
	m.Init() // the first page is requested, not yet answered
	if v := m.View().Content; !strings.Contains(v, "Loading projects…") || !m.top().Busy() {
		t.Fatalf("no loading state:\n%s", v)
	}
}

// Each row on screen says how the project's error tracking is set up.
func TestProjectsOverview(t *testing.T) {
	h, _ := console(t, "")
	h.mustSee("integrated · on · 2 keys", "Sentry · on", "not set up", "integrated · off · 1 key")
	g := newGitLab(t, mockserver.Options{}, mockserver.TokenDeveloper)
	// A Developer sees no maintainable project, but may open one by path.
	h = newHarness(t, Deps{API: g.api, Host: g.url, Recent: []RecentProject{{ID: 1, Path: "demo/web-shop"}}})
	h.mustSee("no access (Maintainer role")
}

// Overviews load for the rows on screen only, a few at a time, and are
// kept: scrolling back asks nothing; ctrl+r asks again.
func TestProjectsOverviewRequestPattern(t *testing.T) {
	g := newGitLab(t, mockserver.Options{ScaleProjects: 115}, mockserver.TokenMaintainer)
	f := faulty(g.api)
	h := newHarness(t, Deps{API: f, Host: g.url})
	visible := h.m.stack[0].(*projectsScreen).list.height
	if n := f.count("GetSettings"); n != visible {
		t.Fatalf("%d overviews loaded for %d rows on screen", n, visible)
	}
	// A batch of overview requests never holds more than the limit.
	s := h.m.stack[0].(*projectsScreen)
	s.overviews.byID, s.overviews.inFlight = map[int64]overview{}, 0
	if cmd := s.loadOverviews(); cmd == nil {
		t.Fatal("nothing to load")
	} else if b, ok := cmd().(tea.BatchMsg); !ok || len(b) != overviewConcurrency {
		t.Fatalf("a batch of %d, want %d", len(b), overviewConcurrency)
	}
	s.overviews.gen++ // drop what that batch would answer
	s.overviews.byID, s.overviews.inFlight = map[int64]overview{}, 0
	h.key("down")
	h.key("pgdown")
	after := f.count("GetSettings")
	if after <= visible {
		t.Fatal("scrolling loaded no new overviews")
	}
	h.key("home")
	if f.count("GetSettings") != after {
		t.Fatal("overviews loaded again for rows already shown")
	}
	h.key("ctrl+r")
	if f.count("GetSettings") <= after {
		t.Fatal("ctrl+r did not reload the overviews")
	}
}

// The overview column keeps on/off when narrow, and sits beside the name
// when wide.
func TestOverviewColumnFits(t *testing.T) {
	h, _ := console(t, "")
	h.resize(50, 15)
	h.mustSee("on · integr")
	h.resize(200, 30)
	for _, l := range strings.Split(h.view(), "\n") {
		if strings.Contains(l, "demo/web-shop") {
			i, j := strings.Index(l, "demo/web-shop"), strings.Index(l, "integrated · on")
			if j < 0 || j-i > 100 {
				t.Fatalf("the state floats %d cells from the project:\n%s", j-i, l)
			}
		}
	}
}

// A pasted project URL of another GitLab is not opened as the same path
// here: the row and the refusal name its host.
func TestPastedURLOfAnotherHost(t *testing.T) {
	h, g := console(t, "")
	h.send(tea.PasteMsg{Content: "https://gitlab.other.example/demo/web-shop/-/settings/monitor"})
	h.mustSee("is on https://gitlab.other.example, not on this GitLab")
	for range 3 {
		h.key("down")
	}
	h.key("end", "enter")
	h.mustSay("errtrack --host https://gitlab.other.example")
	h.mustNotSee("Client keys")
	// The console's own host opens.
	h.key("ctrl+u")
	h.send(tea.PasteMsg{Content: g.url + "/demo/web-shop"})
	h.key("end", "enter")
	h.mustSee("Client keys (2)")
}

// A project changed while its row was filtered out gets its state again
// when esc clears the filter, without another key.
func TestOverviewReloadsWhenFilterCleared(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url})
	h.mustSee("integrated · on · 2 keys")
	h.filter("web-shop")
	h.key("enter")
	h.mustSee("Client keys (2)")
	create := h.holdWrite("n")
	h.key("esc")
	h.filter("zzzz")
	h.run(create)
	h.key("esc")
	h.mustSee("demo/web-shop", "integrated · on · 3 keys")
}
