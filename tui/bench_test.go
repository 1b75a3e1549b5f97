package tui

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
)

// keysModel is a root model showing a project with n keys at 120x40.
func keysModel(b testing.TB, n int) Model {
	api := newFakeAPI()
	keys := make([]apiclient.ClientKey, n)
	for i := range keys {
		keys[i] = fakeKey(1, int64(i+1))
	}
	m := New(Deps{API: api, Project: "1", Host: "https://gitlab.example.com"})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = next.(Model)
	s := m.top().(*projectScreen)
	s.keysID, s.settingsID = 1, 2
	next, _ = m.Update(keysLoadedMsg{id: 1, keys: keys})
	next, _ = next.Update(settingsLoadedMsg{id: 2, settings: &apiclient.Settings{Active: true, Integrated: true}})
	return next.(Model)
}

func projectsModel(b testing.TB, n int) Model {
	api := newFakeAPI()
	m := New(Deps{API: api, Host: "https://gitlab.example.com"})
	next, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m = next.(Model)
	s := m.top().(*projectsScreen)
	s.listID = 7
	ps := make([]apiclient.Project, n)
	for i := range ps {
		ps[i] = apiclient.Project{ID: int64(i + 1), Name: fmt.Sprintf("Project %05d", i+1), PathWithNamespace: fmt.Sprintf("scale/project-%05d", i+1)}
	}
	next, _ = m.Update(projectsLoadedMsg{id: 7, page: 1, projects: ps, complete: true})
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
	next, _ := m.Update(keyMsg("/"))
	benchKeystrokes(b, next.(Model), keyMsg("7"), keyMsg("backspace"))
}

// BenchmarkFirstFrame is building the console and drawing its first frame.
func BenchmarkFirstFrame(b *testing.B) {
	api := newFakeAPI()
	b.ReportAllocs()
	for b.Loop() {
		m := New(Deps{API: api, Host: "https://gitlab.example.com"})
		_ = m.Init()
		_ = m.View()
	}
}
