package tui

import (
	"testing"

	"github.com/errtrack/errtrack/apiclient"
)

// Press R (or n, d, a settings change) and leave before the answer: the
// result reaches the user on whatever screen is open.
func TestWriteResultsReachTheUserAfterEsc(t *testing.T) {
	h, g := console(t, "1")
	h.key("down")
	rotate := h.holdWrite("R") // the rotation is in flight
	h.key("esc")
	h.mustSee("Projects you maintain")
	h.run(rotate)
	h.mustSee("New key 4 created in demo/web-shop. Delete old key 2?", "http://glet_")
	h.key("y")
	h.mustSee("Rotated: new key 4 replaces key 2")
	if ids := g.keyIDs(1); len(ids) != 2 || ids[1] != 4 {
		t.Fatalf("keys %v", ids)
	}

	h, _ = console(t, "1")
	create := h.holdWrite("n")
	h.key("esc")
	h.run(create)
	h.mustSee("Created client key 4 in demo/web-shop.")

	h, _ = console(t, "1")
	h.key("d")
	del := h.holdWrite("y")
	h.key("esc")
	h.run(del)
	h.mustSee("Deleted client key 1 (glet_")

	h, _ = console(t, "1")
	h.key("tab", "a")
	disable := h.holdWrite("y")
	h.key("esc")
	h.run(disable)
	h.mustSee("Error tracking settings disabled for demo/web-shop.")
	// Reopened later, the project shows what the write did.
	h.filter("web")
	h.key("enter", "tab")
	h.mustSee("Active        no")
}

// A project reopened while its write is in flight gets the result too.
func TestReopenedProjectGetsTheResult(t *testing.T) {
	h, _ := console(t, "1")
	create := h.holdWrite("n")
	h.key("esc")
	h.filter("web")
	h.key("enter")
	h.mustSee("Client keys (2)")
	h.run(create)
	h.mustSee("Client keys (3)", "Created client key 4")
}

func TestFailedRequestLeavesScreen(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	h := newHarness(t, Deps{API: f, Host: g.url, Project: "1"})
	f.fail("CreateClientKey", errServer502)
	h.key("n")
	h.mustSee("HTTP 502", "press r to refresh the list before creating another", "Client keys (2)")
	f.fail("UpdateSettings", &apiclient.APIError{StatusCode: 403, Kind: apiclient.ErrInsufficientScope})
	h.key("tab", "a", "y")
	h.mustSee("lacks the api scope", "Active        yes")
	f.fail("ListClientKeys", &apiclient.APIError{StatusCode: 503, Kind: apiclient.ErrServer})
	h.key("r")
	h.key("tab")
	h.mustSee("HTTP 503", g.srv.Keys(1)[0].PublicKey)
}
