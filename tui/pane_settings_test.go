package tui

import (
	"testing"
)

// Without a Sentry configured, switching integrated off would be refused by
// the server: it is not offered, and the screen says where it is set up.
func TestExternalTrackerOnlyWhereConfigured(t *testing.T) {
	h, _ := console(t, "1")
	h.key("tab")
	h.mustNotSee("i use Sentry", "i toggle")
	h.mustSay("configure it in GitLab's web UI: Settings > Monitor > Error Tracking")
	h.key("i")
	h.mustSay("No external tracker is configured", "Settings > Monitor > Error Tracking")
	h.mustSee("Integrated    yes")
}

func TestDisableAsksFirstAndShowsServerRecord(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	h := newHarness(t, Deps{API: f, Host: g.url, Project: "1"})
	h.key("tab", "a")
	h.mustSee("Disable error tracking?", "No", "Disable")
	h.key("n")
	if f.count("UpdateSettings") != 0 {
		t.Fatal("PATCH sent after No")
	}
	h.mustSee("Active        yes")
	h.key("a", "y")
	h.mustSee("Active        no", "settings disabled")
	h.key("a") // enabling needs no confirmation
	h.mustSee("Active        yes", "settings enabled")
	if f.count("UpdateSettings") != 2 {
		t.Fatalf("PATCH count %d", f.count("UpdateSettings"))
	}
}

func TestIntegratedUnavailable(t *testing.T) {
	h, _ := console(t, "4") // demo/on-prem: integrated error tracking is off here
	h.key("tab", "enter")
	h.mustSee("not available for this project on this GitLab", "not configured for this project yet")
}
