package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/check"
)

// With a key policy, F shows the project's findings under it too, the
// rule's name beside each, with the key that fixes it (no command line);
// without one, none.
func TestFindingsShowThePolicysRules(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "demo/mobile/ios", Policy: check.Demo()})
	h.mustSee("USED IN", "SENTRY_DSN")
	h.key("F")
	h.mustSay("Policy (errtrack.yaml): 2 findings.", "[no-dangling-dsn] OLD_SENTRY_DSN (environment staging)",
		"[integrated-error-tracking] integrated error tracking is enabled", "Fix: a on the Settings tab disables it",
		"Fix: point it at a current key's DSN (the Client keys tab lists them; c copies a key's DSN), or remove it")
	if v := strings.Join(strings.Fields(strings.ReplaceAll(h.view(), "│", " ")), " "); commandLine.MatchString(v) {
		t.Fatalf("a command line in the console:\n%s", h.view())
	}
	h.key("pgdown")
	h.mustSay("Not checked (dsn-variables,")

	plain := newHarness(t, Deps{API: g.api, Host: g.url, Project: "demo/mobile/ios"})
	plain.mustSee("USED IN", "SENTRY_DSN")
	plain.key("F")
	plain.mustSay("Findings for demo/mobile/ios")
	plain.mustNotSee("Policy (errtrack.yaml)")
}

// commandLine is an errtrack command in the text: the console's words
// name its keys instead ("errtrack does not know" is no command).
var commandLine = regexp.MustCompile(`errtrack (keys|settings|audit|doctor|migrate|check|rotations|login|projects|export|api)\b`)

// Every fix a policy finding can carry is worded in the console's terms:
// the key that does it where one does, never a command line.
func TestPolicyFixesAreConsoleWords(t *testing.T) {
	k := DefaultKeyMap()
	key := apiclient.ClientKey{PublicKey: "aa11", Name: "Production"}
	for kind := check.FixRotateKey; kind <= check.FixDoctor; kind++ {
		a := check.FixAction{Kind: kind, Project: "demo/api", Key: key, Variable: "SENTRY_DSN", RateLimit: "1000/3600"}
		got := policyFix(k, a)
		if got == "" || strings.Contains(got, "errtrack ") || strings.Contains(got, " -p ") {
			t.Errorf("kind %d: %q", kind, got)
		}
		if a.Command() == "" {
			t.Errorf("kind %d has no command line", kind)
		}
	}
	if got := policyFix(k, check.FixAction{Kind: check.FixDeleteKey, Key: key}); !strings.HasPrefix(got, `d on key "Production"`) || !strings.HasSuffix(got, "on the Client keys tab") {
		t.Errorf("delete: %q", got)
	}
}
