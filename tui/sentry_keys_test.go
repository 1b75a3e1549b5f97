package tui

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/seen"
)

// A Sentry-backed project's keys, in the console, against a mock GitLab
// whose demo/legacy-api (ID 3) reports to a mock Sentry, both in process.

type sentryWorld struct {
	g   gitlab
	ss  *mocksentry.Server
	ts  *httptest.Server // the mock Sentry's listener
	url string
	led *rotation.Rotations
}

func newSentryWorld(t *testing.T, opts mocksentry.Options) sentryWorld {
	t.Helper()
	var ss *mocksentry.Server
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ss.ServeHTTP(w, r) }))
	t.Cleanup(ts.Close)
	opts.PublicURL = ts.URL
	ss = mocksentry.New(opts)
	g := newGitLab(t, mockserver.Options{SentryURL: ts.URL, SentryDSN: ss.DSN("demo", "legacy-api", "Production")}, mockserver.TokenMaintainer)
	return sentryWorld{g: g, ss: ss, ts: ts, url: ts.URL, led: testRotations(t, g.url)}
}

// resolver is the console's Sentry: token for the mock Sentry's host only.
func (w sentryWorld) resolver(token string) keystore.SentryResolver {
	return func(ctx context.Context, apiURL string) (keystore.KeyStore, error) {
		c, p, _, err := sentry.ClientFor(ctx, sentry.Tokens{EnvToken: token, EnvURL: w.url}, apiURL, apiclient.WithRetries(0, 0))
		if err != nil {
			return nil, err
		}
		return keystore.SentryKeys(c, p), nil
	}
}

// console opens demo/legacy-api with the Sentry token given.
func (w sentryWorld) console(t *testing.T, token string, deps Deps) *harness {
	t.Helper()
	deps.API, deps.Host, deps.Project, deps.Rotations = w.g.api, w.g.url, "3", w.led
	if token != "" {
		deps.Sentry = w.resolver(token)
	}
	h := newHarness(t, deps)
	h.resize(130, 40) // no details beside the list: questions read whole
	return h
}

func (w sentryWorld) key(t *testing.T, label string) mocksentry.Key {
	t.Helper()
	for _, k := range w.ss.Keys("demo", "legacy-api") {
		if k.Label == label {
			return k
		}
	}
	t.Fatalf("the Sentry has no key %q: %+v", label, w.ss.Keys("demo", "legacy-api"))
	return mocksentry.Key{}
}

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

// The done-when of issue 32, in process: a soft rotation (the new key
// named, SENTRY_DSN repointed, a test event through the new DSN, the old
// key disabled) stays open in the ledger and on the project screen; the
// old key deleted later with d closes it.
func TestSentrySoftRotationThenDelete(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	var created int
	h := w.console(t, mocksentry.TokenAdmin, Deps{KeyCreated: func(string, projectscope.Project, int64) { created++ }})
	old := w.key(t, "Production")
	h.selectKey("Production")
	h.key("R")
	h.mustSay(`Rotate key "Production"`, "[x] soft: disable the old key, delete it later")
	h.clearField()
	h.typeText("Production 2")
	h.key("enter")
	h.mustSay("Update its CI/CD variables?")
	h.key("y")
	h.mustSay(`Disable old key "Production"`)
	h.key("v") // a test event with the new DSN first
	h.mustSay("The test event through the new DSN was accepted by ingestion")
	h.key("y")
	h.mustSay("Rotated softly")
	nk := w.key(t, "Production 2")
	if w.ss.Events(nk.Public) != 1 {
		t.Fatalf("%d events through the new DSN", w.ss.Events(nk.Public))
	}
	if w.key(t, "Production").Active {
		t.Fatal("the old key is not disabled")
	}
	if v := w.g.srv.Variables(3); len(v) != 1 || !strings.Contains(v[0].Value, nk.Public) {
		t.Fatalf("SENTRY_DSN: %+v", v)
	}
	open := w.led.OpenRotations(3)
	if len(open) != 1 || open[0].Phase != ledger.PhaseDisabled || open[0].OldPublic != old.Public || open[0].Backend != keystore.BackendSentry {
		t.Fatalf("open rotations: %+v", open)
	}
	h.mustSay(`Soft rotation open: key "Production"`, `disabled on `+testNow.Format(time.DateOnly), `new key "Production 2"`, "delete the old key (d)")

	h.selectKey("Production")
	h.mustSee("off")
	h.key("d")
	h.mustSay(`Delete client key "Production"`, "It is disabled")
	h.key("y")
	h.mustSay("This finishes the rotation")
	h.mustNotSee("Soft rotation open", old.Public)
	h.mustSee("Staging", "Production 2", nk.Public, "Client keys (2)")
	if created != 0 {
		t.Fatal("a Sentry key was recorded by ID for its age")
	}
	if open := w.led.OpenRotations(3); len(open) != 0 {
		t.Fatalf("still open: %+v", open)
	}
	recs := w.led.Store().Records(func(r ledger.Record) bool { return r.Kind == ledger.KindRotation })
	if len(recs) != 1 || recs[0].IsOpen() || recs[0].Ended == nil {
		t.Fatalf("the rotation is not closed: %+v", recs)
	}
	if len(w.ss.Keys("demo", "legacy-api")) != 2 {
		t.Fatalf("keys left: %+v", w.ss.Keys("demo", "legacy-api"))
	}
}

// a turns a key off (asking first) and on; e renames it; l sets its rate
// limit, or none, refusing what is not one.
func TestSentryKeyToggleRenameRateLimit(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	h := w.console(t, mocksentry.TokenAdmin, Deps{})
	h.selectKey("Staging")
	h.key("a")
	h.mustSay(`Disable key "Staging"`, "Events sent with it are refused")
	h.key("n")
	if !w.key(t, "Staging").Active {
		t.Fatal("disabled without a yes")
	}
	h.key("a", "y")
	h.mustSay(`Disabled key "Staging"`)
	if w.key(t, "Staging").Active {
		t.Fatal("not disabled")
	}
	h.mustSee("off")
	h.key("a") // on again, without a question
	h.mustSay(`Enabled key "Staging"`)
	if !w.key(t, "Staging").Active {
		t.Fatal("not enabled")
	}

	h.key("e")
	h.clearField()
	h.typeText("Staging EU")
	h.key("enter")
	h.mustSay(`Renamed key "Staging"`)
	h.mustSee("Staging EU")
	w.key(t, "Staging EU")

	h.key("l")
	h.mustSay("Limit: 1000/1h") // as the list shows it
	h.typeText("10/0")
	h.key("enter")
	h.mustSay("Not a rate limit")
	h.clearField()
	h.typeText("500/min") // min, as the help names it
	h.key("enter")
	h.mustSee("500/1min")
	if k := w.key(t, "Staging EU"); k.RateCount != 500 || k.RateWindow != 60 {
		t.Fatalf("rate limit %d/%d", k.RateCount, k.RateWindow)
	}
	h.key("l")
	h.clearField()
	h.typeText("none")
	h.key("enter")
	if k := w.key(t, "Staging EU"); k.RateCount != 0 {
		t.Fatalf("rate limit %d/%d not removed", k.RateCount, k.RateWindow)
	}
}

// A Sentry whose rate-limit feature is off keeps the key unlimited: the
// console says so, not that it worked.
func TestSentryRateLimitNotApplied(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{NoRateLimitFeature: true})
	h := w.console(t, mocksentry.TokenAdmin, Deps{})
	h.selectKey("Production")
	h.key("l")
	h.clearField()
	h.typeText("100/60")
	h.key("enter")
	h.mustSay("Sentry kept key \"Production\"", "without the rate limit")
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
	h.mustSay("Sentry says the token has expired", "errtrack login --sentry "+w.url)
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

// One rotation of a key at a time, named by its ref: Sentry keys, all
// without an ID, are told apart before the plan has read them.
func TestRotationConflictsByKey(t *testing.T) {
	a := rotationWrite{old: "aaaaaaaa1"}
	b := rotationWrite{old: "bbbbbbbb2"}
	if a.conflicts(b) || !a.conflicts(rotationWrite{old: "aaaaaaaa1"}) {
		t.Fatal("rotations of two keys conflict, or two of one key do not")
	}
}

// R on the disabled old key of an open soft rotation goes on with it (no
// new key, no name asked): its delete question deletes the old key and
// the rotation is done.
func TestSentrySoftRotationGoneOnWithR(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	h := w.console(t, mocksentry.TokenAdmin, Deps{})
	h.selectKey("Production")
	h.key("R", "enter") // the name offered, soft
	h.key("y", "y")     // variables, then disable
	h.mustSay("Rotated softly")
	h.selectKey("Production")
	h.key("R")
	h.mustSay("made by an unfinished rotation")
	h.key("y")
	h.mustSay(`Delete old key "Production"`)
	h.key("y")
	h.mustSay("which is deleted")
	recs := w.led.Store().Records(func(r ledger.Record) bool { return r.Kind == ledger.KindRotation })
	if len(recs) != 1 || recs[0].Phase != ledger.PhaseDone {
		t.Fatalf("rotations: %+v", recs)
	}
	if n := len(w.ss.Keys("demo", "legacy-api")); n != 2 {
		t.Fatalf("%d keys, want the new one and Staging", n)
	}
	h.mustNotSee("Soft rotation open")
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

// After a soft rotation, a turns the old key on again: the banner stops
// calling it disabled.
func TestSoftRotationBannerAfterTheOldKeyIsOnAgain(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	h := w.console(t, mocksentry.TokenAdmin, Deps{})
	h.selectKey("Production")
	h.key("R")
	h.typeText("Production 2")
	h.key("enter")
	h.mustSay("Update its CI/CD variables?")
	h.key("y")
	h.mustSay(`Disable old key "Production"`)
	h.key("y")
	h.mustSay("Rotated softly")
	h.mustSay(`disabled on ` + testNow.Format(time.DateOnly) + `, new key "Production 2"`)
	h.selectKey("Production")
	h.key("a")
	h.mustSay(`, disabled on ` + testNow.Format(time.DateOnly) + `, is on again; new key "Production 2"`)
	if !w.key(t, "Production").Active {
		t.Fatal("the old key is still off")
	}
}

// At 80x24 a soft rotation's result, with the Sentry keys' long names,
// takes at most two lines (it took three at 120 columns).
func TestSoftRotationResultTwoLinesAt80(t *testing.T) {
	w := newSentryWorld(t, mocksentry.Options{})
	h := w.console(t, mocksentry.TokenAdmin, Deps{})
	h.resize(80, 24)
	h.selectKey("Production")
	h.key("R")
	h.typeText("Production 2")
	h.key("enter")
	h.mustSee("Update variables")
	// the DSN copied: said in two lines too
	if lines := statusLines(h.m.sh.styles, h.m.status, 80, 24); len(lines) > 2 || !strings.Contains(strings.Join(lines, " "), "clipboard") {
		t.Fatalf("the copy's status at 80 columns:\n%s", strings.Join(lines, "\n"))
	}
	h.key("y")
	h.mustSee("Disable old key")
	h.key("y")
	h.mustSay("Rotated softly: new key \"Production 2\"", "(in SENTRY_DSN); old key", "disabled until you delete it (d).")
	if lines := statusLines(h.m.sh.styles, h.m.status, 80, 24); len(lines) > 2 {
		t.Fatalf("the result takes %d lines at 80 columns:\n%s", len(lines), strings.Join(lines, "\n"))
	}
}
