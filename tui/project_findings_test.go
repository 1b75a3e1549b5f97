package tui

import (
	"context"
	"regexp"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

// D runs errtrack doctor's checks on the open project, off the UI, and
// shows each with its fix; no test event is sent.
func TestDoctorInTheConsole(t *testing.T) {
	h, g := console(t, "demo/paused")
	h.key("D")
	h.mustSay("Doctor for demo/paused: ", "ok    server: GitLab 17.5 answers", "settings: ", "fix: ", "No test event was sent")
	// ok, warn and fail in their meaning's colour, the words kept
	if raw := h.m.View().Content; !regexp.MustCompile(`\x1b\[[0-9;]*m(ok  |warn|fail)`).MatchString(raw) {
		t.Fatalf("the checks' states are not coloured:\n%q", raw)
	}
	if g.srv.Envelopes(5) != 0 {
		t.Fatal("the doctor sent an event")
	}
	h.key("esc")
	h2, _ := console(t, "demo/web-shop")
	h2.key("D")
	h2.mustSay("Doctor for demo/web-shop: ")
}

// sentryKeyOff turns the mock Sentry's key label off, as another client
// of that Sentry would.
func sentryKeyOff(t *testing.T, w sentryWorld, label string) {
	t.Helper()
	store, err := w.resolver(mocksentry.TokenAdmin)(t.Context(), w.url+"/api/0/projects/demo/legacy-api/")
	if err != nil {
		t.Fatal(err)
	}
	k := w.key(t, label)
	switcher, ok := store.(interface {
		SetActive(context.Context, apiclient.ClientKey, bool) (*apiclient.ClientKey, error)
	})
	if !ok {
		t.Fatalf("%T turns no key off", store)
	}
	if _, err := switcher.SetActive(t.Context(), apiclient.ClientKey{PublicKey: k.Public}, false); err != nil {
		t.Fatal(err)
	}
}

// A disabled Sentry key that a variable still holds: F's fix names the
// console's keys on that key (R rotates, a turns it on), not the commands.
func TestFindingsOfADisabledKeyNameTheConsolesKeys(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	sentryKeyOff(t, w, "Production")
	h := w.console(t, mocksentry.TokenAdmin, Deps{})
	h.key("F")
	h.mustSay(`is disabled while SENTRY_DSN`, `point them at an active key (R on key "Production"`, `or turn the key on again (a on key "Production"`)
	h.mustNotSee("errtrack keys", "--active")
}

// A Sentry token that cannot read keys (an organization token): the
// doctor's fix is a new token, logged in from the command line (the
// console logs in to GitLab only), said as such.
func TestDoctorOfAnOrganizationTokenSaysWhereToLogIn(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	h := w.console(t, mocksentry.TokenOrgCI, Deps{})
	h.key("D")
	h.mustSay("Sentry token: the Sentry token is an organization token", "then log in with it (from the command line: errtrack login --sentry "+w.url+")")
	h.mustNotSee("errtrack keys", ", then errtrack login")
}

// The doctor's fix for a Sentry token that cannot make keys: a new token
// and a login from the command line, said as such.
func TestDoctorOfAReadOnlySentryTokenSaysWhereToLogIn(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	h := w.console(t, mocksentry.TokenRead, Deps{})
	h.key("D")
	h.mustSay("the token reads keys but cannot make or change them", "log in again (from the command line: errtrack login --sentry "+w.url+")")
	h.mustNotSee("errtrack keys", "and errtrack login")
}

// The doctor's fix for a token that expires soon is the console's ctrl+t
// where the console can rotate it, and no command line.
func TestDoctorOfAnExpiringTokenNamesCtrlT(t *testing.T) {
	h, _ := rotatingConsole(t, &tokenStore{tokens: map[string]string{}})
	h.key("D")
	h.mustSay("token: the token expires in 3 days", "fix: rotate it: ctrl+t")
	h.mustNotSee("errtrack auth")
	g := newGitLab(t, mockserver.Options{}, mockserver.TokenExpiring)
	h = newHarness(t, Deps{API: g.api, Host: g.url, Project: "1"}) // no rotation here
	h.key("D")
	h.mustSay("fix: create a new token and log in again")
	h.mustNotSee("errtrack auth", "ctrl+t")
}
