package tui

import (
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

func TestStatusBar(t *testing.T) {
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "demo/web-shop", Demo: true})
	h.mustSee(g.url, "@demo-maintainer", "demo/web-shop", "DEMO")
}

// The console warns with the same words `errtrack status` uses.
func TestTokenExpiryWarning(t *testing.T) {
	g := newGitLab(t, mockserver.Options{}, mockserver.TokenExpiring)
	h := newHarness(t, Deps{API: g.api, Host: g.url})
	h.mustSee("⚠ token expires in 3 days")
	g = demoGitLab(t)
	h = newHarness(t, Deps{API: g.api, Host: g.url})
	h.mustNotSee("token expires")
}

// Timers run through the console's clock: the status message goes when its
// time is up, not before.
func TestStatusMessageExpires(t *testing.T) {
	h, _ := console(t, "1")
	h.key("c")
	h.mustSee("Sent the DSN of key 1")
	h.advance(statusTTL - time.Second)
	h.mustSee("Sent the DSN of key 1")
	h.advance(2 * time.Second)
	h.mustNotSee("Sent the DSN")
	// An error stays until something replaces it.
	h.send(statusMsg{text: "boom", kind: statusError})
	h.advance(time.Minute)
	h.mustSee("boom")
}

func TestRetryNoticeShown(t *testing.T) {
	h, _ := console(t, "")
	h.send(RetryNotice{Wait: 2500 * time.Millisecond, StatusCode: 429, RateLimited: true})
	h.mustSee("Rate limited by the server; retrying in 3 s")
	h.send(RetryNotice{Wait: time.Second, StatusCode: 503})
	h.mustSee("HTTP 503; retrying in 1 s")
}
