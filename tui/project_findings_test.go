package tui

import (
	"regexp"
	"testing"
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
