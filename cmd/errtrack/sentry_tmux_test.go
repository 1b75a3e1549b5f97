package main

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestSentryKeysDemoInTmux is issue 32's done-when in the built binary:
// `errtrack --demo` (what `make demo` runs), open the Sentry-backed demo
// project, see its Sentry keys with names and rate limits, rotate one
// softly (the old key disabled, SENTRY_DSN repointed, a test event
// accepted through the new DSN), then delete the old key from the open
// rotation, which closes it.
func TestSentryKeysDemoInTmux(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	s := newTmux(t)
	s.tmux("respawn-pane", "-k", "-t", "e2e", bin+" --demo; echo EXITED rc=$?; sleep 30")
	s.waitFor("demo/legacy-api")
	s.keys("/legacy")
	s.waitFor("(1 match of")
	s.keys("Enter")
	s.waitFor("Keys of the Sentry project demo/legacy-api on http://127.0.0.1:")
	s.waitRow("Staging", "on", "1000/1h")
	s.waitRow("Production", "on", "none")
	if strings.Contains(s.screen(), "glet_") {
		t.Fatalf("GitLab's keys shown as the Sentry-backed project's:\n%s", s.screen())
	}

	// The filter keeps Production and the key that replaces it in view.
	s.keys("/", "Production", "Enter")
	s.waitGone("Staging")
	s.keys("R")
	s.waitFor(`Rotate key "Production"`)
	s.waitFor("[x] soft: disable the old key, delete it later")
	s.keys("Enter") // the name offered: "Production <today>"
	s.waitFor("No    Update variables")
	s.answer("y")
	s.waitFor("Disable old key")
	s.answer("v")
	s.waitFor("accepted by ingestion (HTTP 200)")
	s.answer("y")
	s.waitFor("Rotated softly")
	s.waitFor("(in SENTRY_DSN); old key")
	date := time.Now().Format(time.DateOnly)
	s.waitRow("Production", "off", "none")
	// The new key: on, and where SENTRY_DSN now points.
	s.waitMatch(regexp.MustCompile(`Production ` + date + `\s+on\s+none\s+[0-9a-f]{20,32}…?\s+SENTRY_DSN`))
	s.waitFor(`Soft rotation open: key "Production"`)

	// Later: the old key (second: Sentry lists the newest first) deleted.
	s.keys("j", "d")
	s.waitFor(`Delete client key "Production" (`)
	s.waitFor("It is disabled")
	s.answer("y")
	s.waitFor("This finishes the rotation")
	s.waitGone("Soft rotation open")
	s.waitGone("off")
	s.keys("C-c")
	s.waitFor("EXITED rc=0")
}

// waitMatch waits for the screen to match re.
func (s tmuxSession) waitMatch(re *regexp.Regexp) {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if re.MatchString(s.screen()) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	s.t.Fatalf("the terminal never matched %s; it shows:\n%s", re, s.screen())
}
