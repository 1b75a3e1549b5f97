package tui

import (
	"testing"

	"github.com/errtrack/errtrack/internal/check"
)

// With a key policy, F shows the project's findings under it too, the
// rule's name beside each, with the command that fixes it; without one,
// none.
func TestFindingsShowThePolicysRules(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "demo/mobile/ios", Policy: check.Demo()})
	h.mustSee("USED IN", "SENTRY_DSN")
	h.key("F")
	h.mustSay("Policy (errtrack.yaml): 2 findings.", "[no-dangling-dsn] OLD_SENTRY_DSN (environment staging)",
		"[integrated-error-tracking] integrated error tracking is enabled", "Fix: errtrack settings disable -p demo/mobile/ios")
	h.key("pgdown")
	h.mustSay("Not checked (dsn-variables,")

	plain := newHarness(t, Deps{API: g.api, Host: g.url, Project: "demo/mobile/ios"})
	plain.mustSee("USED IN", "SENTRY_DSN")
	plain.key("F")
	plain.mustSay("Findings for demo/mobile/ios")
	plain.mustNotSee("Policy (errtrack.yaml)")
}
