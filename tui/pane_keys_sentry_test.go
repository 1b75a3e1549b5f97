package tui

import (
	"context"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/seen"
)

// A Sentry-backed project's keys, in the console, against a mock GitLab
// whose demo/legacy-api (ID 3) reports to a mock Sentry, both in process.

// selectKey moves the cursor to the key of that name.
func (h *harness) selectKey(name string) {
	h.t.Helper()
	ps := h.m.top().(*projectScreen)
	h.key("home")
	for range ps.keys.data.val {
		if k, ok := ps.keys.selected(); ok && k.Name == name {
			return
		}
		h.key("down")
	}
	h.t.Fatalf("no key %q on the list:\n%s", name, h.view())
}

// clearField empties the text field of the question open.
func (h *harness) clearField() {
	h.t.Helper()
	h.key("ctrl+u")
	if d := h.m.dialogs; len(d) == 0 || d[len(d)-1].ask == nil || d[len(d)-1].ask.input.Value() != "" {
		h.t.Fatal("no emptied text field")
	}
}

// The keys tab lists the Sentry project's keys, with names, switches, rate
// limits and where each DSN is used; the tab opens on them, and GitLab's
// keys of the project are nowhere.
func TestSentryKeysListed(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	h := w.console(t, mocksentry.TokenAdmin, Deps{})
	h.mustSee("Keys of the Sentry project demo/legacy-api on "+w.url, "Client keys (2)",
		"NAME", "RATE LIMIT", "Production", "Staging", "1000/1h", "none", w.key(t, "Production").Public)
	h.mustNotSee("glet_")
	h.selectKey("Production")
	h.mustSee("SENTRY_DSN") // where its DSN is used
	h.key("?")
	h.mustSee("disable key", "rename key", "rate limit")
}

// n asks the new key's name and creates it under that name: the name
// offered is a placeholder, so typing replaces it rather than appending.
func TestSentryCreateAsksAName(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	var created int
	h := w.console(t, mocksentry.TokenAdmin, Deps{KeyCreated: func(string, projectscope.Project, int64) { created++ }})
	h.key("n")
	h.mustSay("New client key in the Sentry project demo/legacy-api", "Name: errtrack "+testNow.Format(time.DateOnly))
	h.typeText("CI runner")
	h.key("enter")
	k := w.key(t, "CI runner")
	h.mustSee("Client keys (3)", "CI runner", k.Public)
	h.mustSay(`Created key "CI runner"`)
	// First, where Sentry lists it (newest first): a refresh moves nothing.
	for _, refresh := range []bool{false, true} {
		if refresh {
			h.key("r")
		}
		ps := h.m.top().(*projectScreen)
		if sel, _ := ps.keys.selected(); ps.keys.data.val[0].Name != "CI runner" || sel.Name != "CI runner" {
			t.Fatalf("the new key is not first and selected (refresh %v):\n%s", refresh, h.view())
		}
	}
	if created != 0 {
		t.Fatal("a Sentry key was recorded by ID for its age")
	}
}

// No token for the project's Sentry: the pane says how to log in to that
// Sentry, and shows none of GitLab's keys as the project's.
func TestSentryNoToken(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	h := w.console(t, "", Deps{Sentry: func(ctx context.Context, apiURL string) (keystore.KeyStore, error) {
		_, _, _, err := sentry.ClientFor(ctx, sentry.Tokens{}, apiURL)
		return nil, err
	}})
	h.mustSay("Could not load the client keys of the project's Sentry", "run 'errtrack login --sentry "+w.url+"'", "with SENTRY_URL="+w.url)
	h.mustNotSee("glet_", "Production", "This project reports to")
	h.key("n")
	if len(h.m.dialogs) != 0 {
		t.Fatal("n offered a key where the keys are unknown")
	}
}

// A token the Sentry refuses (expired) is the Sentry token's problem: the
// pane says so, and the console stays where it is, not on GitLab's login.
func TestSentryRefusedTokenIsNotGitLabs(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	h := w.console(t, mocksentry.TokenExpired, Deps{Login: func(context.Context, string, string) (API, error) { return nil, nil }})
	h.mustSay("Sentry says the token has expired", "errtrack login --sentry "+w.url+"' from the command line")
	if _, ok := h.m.top().(*projectScreen); !ok {
		t.Fatalf("a Sentry 401 left the project screen:\n%s", h.view())
	}
}

// A console without a Sentry resolver does not manage a Sentry's keys: it
// says how, and never shows GitLab's keys as the project's.
func TestSentryNotManaged(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	h := w.console(t, "", Deps{})
	h.key("tab") // it opens on the settings: there is nothing else to show
	h.mustSay("This project reports to the Sentry project demo/legacy-api on "+w.url, "errtrack login --sentry "+w.url)
	h.mustNotSee("glet_", "ACTIVE")
	h.key("n", "d", "R")
	if len(h.m.dialogs) != 0 || len(h.m.sh.pending) != 0 {
		t.Fatal("a key acted on keys that are not the project's")
	}
}

// Sentry keys have no IDs: a question about one opens only while that
// key, not any other, is still selected; no age is recorded by ID.
func TestSentryDeleteAsksAtThatKey(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	seenCalls := 0
	h := w.console(t, mocksentry.TokenAdmin, Deps{KeysSeen: func(string, projectscope.Project, []int64) (map[int64]seen.Entry, error) {
		seenCalls++
		return nil, nil
	}})
	h.selectKey("Production")
	lookup := h.holdWrite("d")
	h.key("up") // another key, also without an ID
	h.run(lookup)
	if len(h.m.dialogs) != 0 {
		t.Fatalf("the question about Production opened on another key:\n%s", h.view())
	}
	h.mustSay("you moved on before it was ready")
	if seenCalls != 0 {
		t.Fatalf("ages asked %d times for keys without IDs", seenCalls)
	}
}

// Settings switched to GitLab's integrated tracking and back to the
// Sentry: the keys follow, read again where they now are.
func TestSentryKeysFollowTheSettings(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	h := w.console(t, mocksentry.TokenAdmin, Deps{})
	h.mustSee("Production", "Staging")
	h.key("tab", "i", "y") // use integrated
	h.key("tab")
	h.mustSee("glet_")
	h.mustNotSee("Staging")
	h.key("tab", "i") // use Sentry again
	if len(h.m.dialogs) > 0 {
		h.key("y")
	}
	h.key("tab")
	h.mustSee("Keys of the Sentry project demo/legacy-api", "Production", "Staging")
	h.mustNotSee("glet_", "This project reports to")
}

// A Sentry that does not answer: the pane says so and how to retry; no
// key is shown, and the console stays on the project.
func TestSentryUnreachable(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	w.ts.Close()
	h := w.console(t, mocksentry.TokenAdmin, Deps{})
	h.mustSay("Could not load the client keys of the project's Sentry", "press r to retry")
	h.mustNotSee("glet_", "NAME", "This project reports to")
	if _, ok := h.m.top().(*projectScreen); !ok {
		t.Fatalf("left the project screen:\n%s", h.view())
	}
}

// A Sentry key's name is the Sentry's text: drawn cleaned everywhere it
// shows (the list, the details, the questions, the rotation's note).
func TestSentryHostileKeyName(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	const evil = "\x1b]0;owned\x07\x1b[2Jevil\u202e\u009b31m"
	c, err := sentry.New(w.url, mocksentry.TokenAdmin)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateKey(context.Background(), sentry.Project{Base: w.url, Org: "demo", Slug: "legacy-api"}, sentry.CreateKeyOptions{Name: "x" + evil}); err != nil {
		t.Fatal(err)
	}
	h := w.console(t, mocksentry.TokenAdmin, Deps{})
	h.resize(160, 40) // the details beside the list too
	h.mustSee("xevil")
	checkSafe(t, h.m.View().Content)
	for _, k := range []string{"enter", "esc", "d", "n", "a", "n", "e", "esc", "l", "esc", "R"} {
		h.key(k)
		checkSafe(t, h.m.View().Content)
	}
	h.key("enter", "n", "n") // a soft rotation of it: its note names it
	checkSafe(t, h.m.View().Content)
}

// Enter on the offered name takes it whole: the placeholder is the name.
func TestSentryCreateTakesTheOfferedName(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	h := w.console(t, mocksentry.TokenAdmin, Deps{})
	h.key("n")
	h.key("enter")
	h.mustSay(`Created key "errtrack ` + testNow.Format(time.DateOnly) + `"`)
	w.key(t, "errtrack "+testNow.Format(time.DateOnly))
}
