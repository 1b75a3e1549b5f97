package tui

import (
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

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
