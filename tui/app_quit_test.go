package tui

import (
	"testing"
)

// The quit question follows the changes it warns about: once the change
// ends, it closes and says nothing is under way any more.
func TestQuitQuestionFollowsTheChange(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: faulty(g.api), Host: g.url, Project: "1"})
	create := h.holdWrite("n")
	h.key("q")
	h.mustSay("Quit with a change under way?", "a client key was being created in demo/web-shop",
		"It may happen or not", "Check the project before trying again.") // one change: not "each", not "the projects"
	h.run(create)
	h.mustNotSee("Quit with a change under way?")
	h.mustSay("nothing is under way any more")
}
