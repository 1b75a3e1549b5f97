package main

import (
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/tui"
)

// errorTrackingRequests records the error tracking requests (settings and
// client keys) a mock GitLab answers, by method and route.
type errorTrackingRequests struct {
	h    http.Handler
	mu   sync.Mutex
	seen []string
}

var afterProject = regexp.MustCompile(`/error_tracking/.*$`)

func (r *errorTrackingRequests) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if route := afterProject.FindString(req.URL.EscapedPath()); route != "" {
		r.mu.Lock()
		r.seen = append(r.seen, req.Method+" "+route)
		r.mu.Unlock()
	}
	r.h.ServeHTTP(w, req)
}

// take returns the requests seen since the last take, in the order they
// came.
func (r *errorTrackingRequests) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.seen
	r.seen = nil
	return out
}

func recordingGitLab(t *testing.T) *errorTrackingRequests {
	srv, err := mockserver.New(mockserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return &errorTrackingRequests{h: srv}
}

// The console's settings create makes the command's requests (the one
// settings write, change.WriteSettings): the keys read before the PUT,
// and again to name the first key GitLab made with it; both name that key.
func TestConsoleAndCommandMakeTheSameSettingsRequests(t *testing.T) {
	t.Parallel()
	cliRec := recordingGitLab(t)
	c := newCLI(t, cliRec)
	c.run("", "settings", "create", "-p", "demo/mobile-app", "--active=true", "--integrated=true").must(t, 0, "GitLab created the first client key, 4")
	command := cliRec.take()

	consoleRec := recordingGitLab(t)
	console := newCLI(t, consoleRec) // its server, for the console
	api, err := apiclient.New(console.url, mockserver.TokenMaintainer, apiclienttest.WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	m := tui.New(tui.Deps{API: api, Host: console.url, Project: "2", Clock: stopped{time.Now()}})
	m2, _ := m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	opened := settle(t, m2, m.Init())
	next, cmd := opened.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	onSettings := settle(t, next, cmd)
	if v := ansi.Strip(onSettings.View().Content); !strings.Contains(v, "not configured for this project yet") {
		t.Fatalf("not on the settings of a project without them:\n%s", v)
	}
	consoleRec.take() // what opening the project read
	next, cmd = onSettings.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	done := settle(t, next, cmd)
	if v := ansi.Strip(done.View().Content); !strings.Contains(v, "GitLab created the first client key, 4") {
		t.Errorf("the console did not name the first key:\n%s", v)
	}
	// A create's requests come one after the other; the console then
	// reads again what the write changed, as after any write: only the
	// write's own requests, first, are compared.
	fromConsole := consoleRec.take()
	if len(fromConsole) < len(command) || !slices.Equal(fromConsole[:len(command)], command) {
		t.Fatalf("the console's settings create made\n  %v\nthe command's\n  %v", fromConsole, command)
	}
}
