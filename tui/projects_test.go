package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
)

func TestProjectsListAndOpen(t *testing.T) {
	api := newFakeAPI()
	h := newHarness(t, Deps{API: api})
	h.mustSee("Projects you maintain", "demo/web-shop", "Web Shop", "demo/legacy-api", "@alice")
	h.key("down", "enter") // the list is ordered as the server sent it
	h.mustSee("demo/mobile-app", "Settings (none)")
	h.key("esc")
	h.mustSee("Projects you maintain")
}

func TestProjectsEmptyAndError(t *testing.T) {
	api := newFakeAPI()
	api.projects = nil
	h := newHarness(t, Deps{API: api})
	h.mustSee("You maintain no projects here")

	api = newFakeAPI()
	api.fail("ListProjects", &apiclient.APIError{StatusCode: 503, Kind: apiclient.ErrServer})
	h = newHarness(t, Deps{API: api})
	h.mustSee("Could not load projects", "HTTP 503")
	h.key("r")
	h.mustSee("demo/web-shop")
}

func TestProjectsTypeToFilter(t *testing.T) {
	h := newHarness(t, Deps{API: newFakeAPI()})
	h.key("l", "e", "g")
	h.mustSee("demo/legacy-api")
	h.mustNotSee("demo/web-shop", "demo/mobile-app")
	h.key("enter")
	h.mustSee("demo/legacy-api", "Settings (active)")
}

func TestProjectsTypedPath(t *testing.T) {
	api := newFakeAPI()
	h := newHarness(t, Deps{API: api})
	h.key("/")
	for _, r := range "other/project" {
		h.key(string(r))
	}
	h.mustSee("→ open other/project")
	h.key("enter")
	h.mustSee("other/project")
	if api.count("GetSettings") != 1 || api.count("ListClientKeys") != 1 {
		t.Fatal("settings and keys not loaded together on open")
	}
}

func TestProjectsTypedID(t *testing.T) {
	h := newHarness(t, Deps{API: newFakeAPI()})
	h.key("3")
	h.mustSee("→ open 3")
	h.key("enter")
	h.mustSee("Settings (active)", "Client keys (0)")
}

func TestProjectsBadTypedPath(t *testing.T) {
	h := newHarness(t, Deps{API: newFakeAPI()})
	h.key("/", "a", "/", "/", "enter")
	h.mustSee("is not a project")
}

func TestProjectsRecentFirst(t *testing.T) {
	h := newHarness(t, Deps{API: newFakeAPI(), Recent: []string{"demo/legacy-api"}})
	v := h.view()
	if strings.Index(v, "demo/legacy-api") > strings.Index(v, "demo/web-shop") {
		t.Fatalf("recent project not first:\n%s", v)
	}
	h.mustSee("(recent)", "Legacy API  (recent)")
	if strings.Count(v, "demo/legacy-api") != 1 {
		t.Fatal("recent project listed twice")
	}
}

func manyProjects(n int) []apiclient.Project {
	ps := make([]apiclient.Project, n)
	for i := range ps {
		ps[i] = apiclient.Project{ID: int64(i + 1), Name: fmt.Sprintf("Project %05d", i+1), PathWithNamespace: fmt.Sprintf("scale/project-%05d", i+1)}
	}
	return ps
}

func TestProjectsLoadMoreOnScroll(t *testing.T) {
	api := newFakeAPI()
	api.projects = manyProjects(120)
	h := newHarness(t, Deps{API: api})
	h.mustSee("(50 loaded)")
	if api.count("ListProjects") != 1 {
		t.Fatalf("%d pages fetched before scrolling", api.count("ListProjects"))
	}
	for i := 0; i < 30; i++ {
		h.key("down")
	}
	h.mustSee("(100 loaded)")
	h.key("G") // loads the last page
	h.key("G")
	h.mustSee("(120)", "scale/project-00120")
}

func TestProjectsServerSearchWhenIncomplete(t *testing.T) {
	api := newFakeAPI()
	api.projects = manyProjects(120)
	h := newHarness(t, Deps{API: api})
	h.key("0", "1", "1", "5")
	h.mustNotSee("scale/project-00115") // not loaded yet
	s := h.m.top().(*projectsScreen)
	if !s.Busy() {
		t.Fatal("no search scheduled")
	}
	// The debounce timer fires once typing stops; a stale tick is ignored.
	h.send(searchTickMsg{seq: s.searchSeq - 1, query: "011"})
	h.send(searchTickMsg{seq: s.searchSeq, query: "0115"})
	h.mustSee("scale/project-00115")
	if len(api.searches) != 1 || api.searches[0] != "0115" {
		t.Fatalf("searches %v", api.searches)
	}
}

func TestProjectsEscClearsFilter(t *testing.T) {
	h := newHarness(t, Deps{API: newFakeAPI()})
	h.key("w", "e", "b")
	h.mustNotSee("demo/legacy-api")
	h.key("esc") // leaves the filter field
	h.key("esc") // clears the filter
	h.mustSee("demo/legacy-api", "demo/web-shop")
}

func TestProjectsHostileNames(t *testing.T) {
	api := newFakeAPI()
	api.projects = []apiclient.Project{{ID: 9, Name: "\x1b]0;owned\x07Evil\x1b[2J", PathWithNamespace: "evil/\x1bcproj"}}
	h := newHarness(t, Deps{API: api})
	raw := h.m.View().Content
	if strings.Contains(raw, "\x1b]0;") || strings.Contains(raw, "\x1b[2J") || strings.Contains(raw, "\x1bc") {
		t.Fatal("escape sequence drawn")
	}
	h.mustSee("Evil", "evil/proj")
}

func TestProjectsLoadingState(t *testing.T) {
	m := New(Deps{API: newFakeAPI(), Host: "https://h"})
	m.Init() // the first page is requested, not yet answered
	if v := ansiStrip(m.View().Content); !strings.Contains(v, "Loading projects…") || !m.top().Busy() {
		t.Fatalf("no loading state:\n%s", v)
	}
}
