package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
)

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
