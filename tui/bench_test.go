package tui

import (
	"context"
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/internal/change"
)

// keysModel is the console showing a project of the mock server with n
// keys at 120x40, loaded as a user would load it.
func keysModel(b *testing.B, n int) Model {
	g := newGitLab(b, mockserver.Options{ScaleKeys: n - 2}, mockserver.TokenMaintainer)
	h := newHarness(b, Deps{API: g.api, Host: g.url, Project: "1"})
	h.resize(120, 40)
	if got := len(h.m.top().(*projectScreen).keys.keys()); got != n {
		b.Fatalf("%d keys loaded, want %d", got, n)
	}
	return h.m
}

// projectsModel is the project list with n projects loaded. Paging 10,000
// projects 50 at a time is not what is measured, so the pages arrive as
// one answer.
func projectsModel(b *testing.B, n int) Model {
	g := demoGitLab(b)
	m := New(Deps{API: g.api, Host: g.url, Clock: &manualClock{now: testNow}})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = next.(Model)
	s := m.top().(*projectsScreen)
	id := s.pages.load.start()
	ps := make([]apiclient.Project, n)
	for i := range ps {
		ps[i] = apiclient.Project{ID: int64(i + 1), Name: fmt.Sprintf("Project %05d", i+1), PathWithNamespace: fmt.Sprintf("scale/project-%05d", i+1)}
	}
	next, _ = m.Update(projectsLoadedMsg{id: id, page: 1, projects: ps, complete: true})
	return next.(Model)
}

func BenchmarkKeysView10k(b *testing.B) {
	m := keysModel(b, 10000)
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkKeysKeystroke10k is one key press and the frame it causes.
func BenchmarkKeysKeystroke10k(b *testing.B) {
	m := keysModel(b, 10000)
	benchKeystrokes(b, m, keyMsg("down"), keyMsg("up"))
}

// benchKeystrokes presses a and b in turn, drawing a frame after each.
func benchKeystrokes(b *testing.B, m Model, first, second tea.KeyPressMsg) {
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		k := first
		if i%2 == 1 {
			k = second
		}
		i++
		next, _ := m.Update(k)
		m = next.(Model)
		_ = m.View()
	}
}

func BenchmarkProjectsView10k(b *testing.B) {
	m := projectsModel(b, 10000)
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkProjectsFilterKeystroke10k types into the filter over 10,000
// projects: refilter plus the frame.
func BenchmarkProjectsFilterKeystroke10k(b *testing.B) {
	m := projectsModel(b, 10000)
	benchKeystrokes(b, m, keyMsg("7"), keyMsg("backspace"))
}

// BenchmarkFirstFrame is building the console and drawing its first frame.
func BenchmarkFirstFrame(b *testing.B) {
	g := demoGitLab(b)
	b.ReportAllocs()
	for b.Loop() {
		m := New(Deps{API: g.api, Host: g.url})
		_ = m.Init()
		_ = m.View()
	}
}

// BenchmarkBulkPlan5000InProcess is the model's side of the plan of a
// change to 5,000 marked projects, from ctrl+o to the plan in the model,
// beside the workflow's plan of the same group (the command's, without its
// process) in the same run. No renderer, no terminal and one frame: it
// tells what the model adds to the workflow, not what a user waits for,
// which BenchmarkConsolePlan5000 (cmd/errtrack) measures in the built
// binary in tmux.
func BenchmarkBulkPlan5000InProcess(b *testing.B) {
	g := newGitLab(b, mockserver.Options{ScaleGroup: 5000}, mockserver.TokenMaintainer)
	b.Run("model", func(b *testing.B) {
		h := newHarness(b, Deps{API: g.api, Host: g.url, Group: "fleet"})
		h.mustSee("(5000)")
		h.key("ctrl+a")
		b.ResetTimer()
		for b.Loop() {
			h.key("ctrl+o", "d")
			h.mustSee("Disable error tracking in")
			b.StopTimer()
			h.key("esc")
			b.StartTimer()
		}
	})
	b.Run("workflow", func(b *testing.B) {
		ctx := context.Background()
		for b.Loop() {
			if _, err := change.PlanGroup(ctx, g.api, apiclient.GroupRef{Path: "fleet"}, false, change.SettingsChange{Enable: false}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
