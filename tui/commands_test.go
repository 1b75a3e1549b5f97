package tui

import (
	"context"
	"testing"
)

// Every command the console starts runs under the program's context: once
// it is done (the program quits), a load stops instead of going on.
func TestCommandsRunUnderTheProgramsContext(t *testing.T) {
	g := demoGitLab(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	h := newHarness(t, Deps{API: g.api, Host: g.url, Context: ctx})
	h.mustSee("Could not load projects: Interrupted before the server answered.")
	h.mustNotSee("demo/web-shop")
}
