package tui

import (
	"testing"

	"github.com/errtrack/errtrack/apiclient"
)

// A message about one project goes when another project opens: the failed
// create on demo/on-prem is not shown in demo/mobile-app.
func TestMessagesBelongToTheirProject(t *testing.T) {
	g := demoGitLab(t)
	api := faulty(g.api)
	api.fail("CreateClientKey", &apiclient.APIError{Kind: apiclient.ErrIntegratedUnavailable, StatusCode: 404, Method: "POST", Path: "/api/v4/projects/4/error_tracking/client_keys", Message: "not available"})
	h := newHarness(t, Deps{API: api, Host: g.url, Project: "demo/on-prem"})
	h.key("n")
	h.mustSay("not available")
	h.key("esc")
	h.mustSay("not available") // still about the project just left
	h.filter("mobile")
	h.key("enter")
	h.mustSee("Client keys")
	h.mustNotSee("not available")
}

// A result reaching the user on another screen names its project; a new
// change clears what an earlier one said.
func TestResultElsewhereNamesTheProject(t *testing.T) {
	h, _ := console(t, "1")
	h.key("tab", "a")
	disable := h.holdWrite("y")
	h.key("esc")
	h.run(disable)
	h.mustSay("Error tracking settings disabled for demo/web-shop.")
	h.filter("paused")
	h.key("enter")
	h.mustNotSee("disabled for demo/web-shop")

	h, _ = console(t, "1")
	h.key("down", "R", "n") // both keys kept: a message about the rotation
	h.mustSay("Both keys exist")
	h.holdWrite("n")
	h.mustNotSee("Both keys exist")
}

func TestBadProjectFlag(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "not a project"})
	h.mustSee("Projects you maintain", "not a project")
}
