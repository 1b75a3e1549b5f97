package tui

import (
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// The harness waits for every command, however slow: against a server that
// takes 150 ms per request, the flows behave as they do at full speed.
func TestSlowServerFlows(t *testing.T) {
	g := newGitLab(t, mockserver.Options{Latency: 150 * time.Millisecond}, mockserver.TokenMaintainer)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "1"})
	h.mustSee("Client keys (2)", "@demo-maintainer")
	h.key("R", "y") // update SENTRY_DSN
	h.mustSee("Delete old key 1?")
	h.key("y")
	h.mustSee("Rotated: new key 4 replaces key 1")
	if ids := g.keyIDs(1); len(ids) != 2 || ids[1] != 4 {
		t.Fatalf("keys %v", ids)
	}
}
