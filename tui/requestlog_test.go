package tui

import (
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// loggedConsole is a console whose client records its requests.
func loggedConsole(t *testing.T, project string) (*harness, gitlab) {
	log := &RequestLog{}
	g := newGitLab(t, mockserver.Options{}, mockserver.TokenMaintainer, apiclient.WithObserver(log.Add))
	return newHarness(t, Deps{API: g.api, Host: g.url, Project: project, Log: log}), g
}

// L shows one line per request, newest last: time, method, the path as sent
// (a project path URL-encoded), status and duration. enter shows one in
// full, c copies it as curl with $GITLAB_TOKEN, never the token.
func TestRequestLog(t *testing.T) {
	h, g := loggedConsole(t, "demo/web-shop")
	h.resize(160, 40)
	h.key("tab", "a", "y") // PATCH active=false
	h.key("L")
	h.mustSee("Request log", "newest last", "GET     200", "/api/v4/projects/demo%2Fweb-shop/error_tracking/client_keys?page=1&per_page=100")
	// The PATCH is followed only by the reads it caused (the projects list
	// refreshing web-shop's overview, the keys' uses read again: the group's
	// variables are forbidden to the demo user): newest last.
	lines := strings.Split(h.view(), "\n")
	patch, after := -1, 0
	for i, l := range lines {
		switch {
		case strings.Contains(l, "PATCH   200") && strings.Contains(l, "/api/v4/projects/demo%2Fweb-shop/error_tracking/settings?active=false"):
			patch = i
		case patch >= 0 && strings.Contains(l, "/api/v4/"):
			if !strings.Contains(l, "GET     200") && !(strings.Contains(l, "GET     403") && strings.Contains(l, "/variables")) {
				t.Fatalf("a line after the PATCH is not a read it caused: %q", l)
			}
			after++
		}
	}
	if patch < 0 || after > 5 {
		t.Fatalf("the newest lines are not last:\n%s", h.view())
	}
	for range after {
		h.key("up")
	}
	h.key("enter")
	h.mustSee("PATCH "+g.url+"/api/v4/projects/demo%2Fweb-shop/error_tracking/settings?active=false", "Private-Token: [redacted]", "200 OK", `"active": false`)
	h.mustNotSee(mockserver.TokenMaintainer)
	h.key("c")
	want := `curl --request PATCH --header "PRIVATE-TOKEN: $GITLAB_TOKEN" '` + g.url + `/api/v4/projects/demo%2Fweb-shop/error_tracking/settings?active=false'`
	if c := h.copied(); len(c) != 1 || c[0] != want {
		t.Fatalf("copied %q\nwant %q", c, want)
	}
	h.key("esc", "esc")
	h.mustSee("Settings (inactive)")
}

// A failed request shows its error kind; a retried one, the retry.
func TestRequestLogFailures(t *testing.T) {
	log := &RequestLog{}
	g := newGitLab(t, mockserver.Options{}, mockserver.TokenDeveloper, apiclient.WithObserver(log.Add))
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "1", Log: log})
	h.key("L")
	h.mustSee("403", "[forbidden]")
	log.Add(apiclient.Exchange{Method: "GET", URL: g.url + "/api/v4/user", Status: 200, Attempt: 2})
	h.send(RequestLogged{})
	h.mustSee("(retry 1)")
}

// In the project list's filter L is a letter of a path; ctrl+l opens the
// log there. On the list itself L opens it, as everywhere.
func TestRequestLogKeyOnTheProjectList(t *testing.T) {
	h, _ := loggedConsole(t, "")
	h.filter("L")
	h.mustNotSee("Request log")
	h.key("ctrl+l")
	h.mustSee("Request log", "/api/v4/projects?")
	h.key("esc", "esc") // the log, then the filter
	h.mustSee("Projects you maintain")
	h.key("L")
	h.mustSee("Request log")
}

// The log keeps the last 500 requests.
func TestRequestLogBounded(t *testing.T) {
	log := &RequestLog{}
	for i := 0; i < 600; i++ {
		log.Add(apiclient.Exchange{Method: "GET", URL: "https://h/api/v4/user", Status: 200, Attempt: 1})
	}
	if e, total := log.snapshot(); len(e) != logSize || total != 600 {
		t.Fatalf("%d kept, %d total", len(e), total)
	}
	g := demoGitLab(t)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "1", Log: log})
	h.key("L")
	h.mustSee("last 500 of 600")
}

// The detail scrolls from the first key; at 80 columns the log keeps each
// request's endpoint in view.
func TestRequestLogDetailScrollsAndPathsFit(t *testing.T) {
	h, _ := loggedConsole(t, "demo/web-shop")
	h.resize(80, 12)
	h.key("L")
	h.mustSee("/projects/1/error_tracking/client_keys?…", "/groups/demo/variables?…  [forbidden]")
	h.key("enter")
	first := h.view()
	h.key("down")
	if h.view() == first {
		t.Fatalf("the first down did not scroll:\n%s", first)
	}
	h.key("up")
	if h.view() != first {
		t.Fatal("up did not scroll back")
	}
}

// A burst of requests wakes the console once per logWake, not once per
// request (each wake draws a frame), and the last request is never left
// without a wake.
func TestRequestLogWakesOncePerBurst(t *testing.T) {
	var wakes atomic.Int32
	log := &RequestLog{OnChange: func() { wakes.Add(1) }}
	start := time.Now()
	for range 1000 {
		log.Add(apiclient.Exchange{Method: "GET", URL: "https://h/api/v4/user", Status: 200, Attempt: 1})
	}
	burst := time.Since(start)
	waitWakes := func(n int32) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); wakes.Load() < n; {
			if time.Now().After(deadline) {
				t.Fatalf("%d wakes, want %d", wakes.Load(), n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	waitWakes(1)
	time.Sleep(3 * logWake)
	if most := int32(burst/logWake) + 2; wakes.Load() > most {
		t.Fatalf("1,000 requests in %v woke the console %d times, want at most %d", burst, wakes.Load(), most)
	}
	before := wakes.Load()
	log.Add(apiclient.Exchange{Method: "GET", URL: "https://h/api/v4/user", Status: 200, Attempt: 1})
	waitWakes(before + 1)
	if _, total := log.snapshot(); total != 1001 {
		t.Fatalf("%d exchanges counted, want 1001", total)
	}
}
