package main

import (
	"regexp"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// The built console stops a change to the marked projects halfway: ctrl+o
// while it runs asks, y stops it, the projects under way finish, and the
// report names the ones it did not reach.
func TestConsoleBulkRunStopsInTmux(t *testing.T) {
	bin := binary(t)
	url, _ := startMockServers(t, "--latency", "100ms", "--scale-group", "12")
	s := newTmux(t, "GITLAB_TOKEN="+mockserver.TokenMaintainer, "ERRTRACK_STATE_DIR="+t.TempDir())
	s.tmux("respawn-pane", "-k", "-t", "e2e", bin+" --host "+url+" --group fleet; echo EXITED rc=$?; sleep 30")
	s.waitFor("Projects of group fleet")
	s.waitFor("fleet/app-012")
	s.keys("C-a")
	s.waitFor("12 marked")
	s.keys("C-o")
	s.waitFor("12 marked projects")
	s.keys("r")
	s.waitFor("Variable: SENTRY_DSN")
	s.keys("Enter")
	s.waitFor("in 11 of 12 marked projects?")
	s.answer("y")
	s.waitMatch(regexp.MustCompile(`Rotating [1-5]/11`))
	s.keys("C-o")
	s.waitFor("Stop rotating the keys SENTRY_DSN holds")
	s.answer("y")
	s.waitFor("not reached")
	s.waitMatch(regexp.MustCompile(`changed\s+fleet/app-0`))
	// Quit and wait for the exit: errtrack closes its ledger in the state
	// directory as it goes, which the test's cleanup removes.
	s.keys("C-c")
	s.waitFor("EXITED rc=")
}
