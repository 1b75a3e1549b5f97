package tui

import (
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// PUT on a project without settings: the server creates the first key
// with them, and the console says so.
func TestCreateSettingsNamesTheFirstKey(t *testing.T) {
	h, g := console(t, "2")
	h.key("tab")
	h.mustSee("not configured for this project yet", "[x] active", "[x] integrated", "Settings (none)")
	h.key("a", "a") // off and on again
	h.mustSee("[x] active")
	h.key("enter")
	h.mustSee("Active        yes", "Integrated    yes")
	h.mustSay("settings created for demo/mobile-app", "GitLab created the first client key, 4")
	h.mustSee("Client keys (1)")
	if g.srv.KeyCount(2) != 1 {
		t.Fatal("the server has no first key")
	}
}

// Turning integrated tracking back on (a PATCH) also names the key it creates.
func TestEnablingIntegratedNamesTheFirstKey(t *testing.T) {
	h, g := console(t, "3") // Sentry configured, no keys: it opens on its settings
	h.mustSee("Integrated    no", "i use integrated")
	h.key("i") // asks, as switching back does
	h.mustSay("Use integrated error tracking?", "external Sentry")
	h.key("y")
	h.mustSee("Integrated    yes")
	h.mustSay("GitLab created the first client key")
	if g.srv.KeyCount(3) != 1 {
		t.Fatal("no key on the server")
	}
	// With a Sentry configured, switching back is offered.
	h.mustSee("i use Sentry")
	h.key("i")
	h.mustSee("Stop using integrated error tracking?", "sentry.example.com")
	h.key("y")
	h.mustSee("Integrated    no", "switched to the external tracker")
}

// On an instance whose integrated_error_tracking flag is off, the settings
// pane says errors are not collected, and switching integrated on says the
// server kept it off and why.
func TestIntegratedFlagOffInstance(t *testing.T) {
	g := newGitLab(t, mockserver.Options{NoIntegratedErrorTracking: true}, mockserver.TokenMaintainer)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "1"})
	h.mustSee("Client keys (2)")
	h.key("tab")
	h.mustSay("Neither integrated error tracking nor an external Sentry is in use")
	h.key("i", "y")
	h.mustSay("GitLab kept integrated error tracking off for demo/web-shop.", "Integrated error tracking is not available for this project on this GitLab")
}
