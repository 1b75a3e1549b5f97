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
