package tui

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

func click(x, y int) tea.MouseClickMsg {
	return tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft}
}

func wheel(down bool) tea.MouseWheelMsg {
	b := tea.MouseWheelUp
	if down {
		b = tea.MouseWheelDown
	}
	return tea.MouseWheelMsg{Button: b}
}

// A click selects a row, a click on the selected row opens it, a click on
// a tab switches to it, and the wheel scrolls.
func TestMouse(t *testing.T) {
	h, _ := console(t, "")
	h.send(click(10, projectsHeader+1)) // the second project, by path
	if c := h.m.stack[0].(*projectsScreen).list.cursor; c != 1 {
		t.Fatalf("cursor %d after a click on row 1", c)
	}
	h.send(click(10, projectsHeader+1))
	h.mustSee("Settings (none)", "demo/mobile-app")
	h.send(click(3, 1)) // the Settings tab
	h.mustSee("Create the settings with")
	h.send(click(30, 1)) // the Client keys tab
	h.mustSee("No client keys yet")
	h.key("esc", "esc")
	h.filter("web")
	h.key("enter")
	h.send(click(5, projectHeader+2)) // the second key
	h.send(click(5, projectHeader+2))
	h.mustSee("Client key 2 of demo/web-shop")
	if h.m.View().MouseMode != tea.MouseModeCellMotion {
		t.Fatal("mouse not enabled")
	}
}

func TestMouseWheel(t *testing.T) {
	g := newGitLab(t, mockserver.Options{ScaleKeys: 150}, mockserver.TokenMaintainer)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "1"})
	p := h.m.top().(*projectScreen).keys
	h.send(wheel(true))
	h.send(wheel(true))
	if p.list.offset != 2*wheelStep {
		t.Fatalf("offset %d after two turns down", p.list.offset)
	}
	h.send(wheel(false))
	if p.list.offset != wheelStep {
		t.Fatalf("offset %d", p.list.offset)
	}
	// A dialog takes keys only.
	h.key("d")
	h.send(click(5, projectHeader+2))
	h.mustSee("Delete client key")
}
