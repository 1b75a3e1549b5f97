package tui

import (
	"strings"
	"testing"
)

// At 120x32 the help of a project's keys is set in columns that use the
// width, as k9s's: every key shows, nothing to scroll.
func TestHelpInColumnsAt120(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "1"})
	h.resize(120, 32)
	h.mustSee("Client keys")
	h.key("?")
	h.mustSee("Keys here", "Everywhere", "Mouse")
	h.mustNotSee("more lines")
	// the screen's keys and the ones everywhere side by side
	for _, l := range strings.Split(h.view(), "\n") {
		if strings.Contains(l, "new") && strings.Contains(l, "Everywhere") {
			return
		}
	}
	t.Fatalf("the help is one column:\n%s", h.view())
}

func TestHelpToggle(t *testing.T) {
	h, _ := console(t, "1")
	h.mustSee("n new", "d delete", "tab settings", "? help", "q quit")
	h.key("?")
	h.mustSee("Keys", "page down", "copy DSN", "rotate")
	h.key("n") // keys do nothing while help is open
	h.key("?")
	h.mustNotSee("page down")
	h.mustSee("Client keys (2)")
	// On the project list, ? is help too: no path or name holds one.
	h, _ = console(t, "")
	h.key("?")
	h.mustSee("Keys", "forget recent")
}

// At 80x24 the help bar keeps "? help" and "q quit", whatever else it drops.
func TestHelpBarKeepsHelpAndQuit(t *testing.T) {
	h, _ := console(t, "1")
	for _, size := range [][2]int{{80, 24}, {60, 15}, {40, 10}} {
		h.resize(size[0], size[1])
		h.mustSee("? help", "q quit")
		frameFits(t, h.m.View().Content, size[0], size[1])
	}
	h.key("tab")
	h.resize(80, 24)
	h.mustSee("? help", "q quit")
}

// ? lists every key once, under headings, and the mouse.
func TestHelpOverlayHasHeadingsAndEachKeyOnce(t *testing.T) {
	h, _ := console(t, "1")
	h.resize(100, 40)
	h.key("?")
	h.mustSee("Keys here (demo/web-shop)", "Everywhere", "Mouse", "the wheel scrolls")
	for _, k := range []string{" esc ", " ?  ", " r  "} {
		if n := h.count(k); n > 1 {
			t.Fatalf("%q listed %d times:\n%s", k, n, h.view())
		}
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
