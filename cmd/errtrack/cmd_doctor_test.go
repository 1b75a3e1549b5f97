package main

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// The doctor's report keeps one column for every check's detail and fix,
// however long a check's name (a Sentry key's ingestion names the key).
func TestDoctorReportAligns(t *testing.T) {
	c, _ := sentryCLI(t)
	var report []struct {
		Checks []struct {
			Name   string `json:"check"`
			Detail string `json:"detail"`
		} `json:"checks"`
	}
	r := c.run("", "doctor", "-p", "demo/legacy-api", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &report); err != nil || len(report) != 1 {
		t.Fatalf("%v\n%s%s", err, r.stdout, r.stderr)
	}
	text := c.run("", "doctor", "-p", "demo/legacy-api").stdout
	lines := strings.Split(text, "\n")
	column, long := -1, false
	for _, ch := range report[0].Checks {
		long = long || len(ch.Name) > 20
		found := false
		for _, l := range lines {
			if i := strings.Index(l, ch.Name); i >= 0 && strings.HasSuffix(l, ch.Detail) {
				found = true
				end := len(l) - len(ch.Detail)
				if strings.TrimSpace(l[i+len(ch.Name):end]) != "" || end <= i+len(ch.Name) {
					t.Errorf("the name %q runs into its detail: %q", ch.Name, l)
				}
				at := utf8.RuneCountInString(l[:end]) // the column a terminal shows
				if column >= 0 && at != column {
					t.Errorf("the detail of %q starts at %d, others at %d:\n%s", ch.Name, at, column, text)
				}
				column = at
			}
		}
		if !found {
			t.Errorf("no line for check %q:\n%s", ch.Name, text)
		}
	}
	if !long {
		t.Fatalf("no check name over 20 characters: the test checks nothing\n%s", text)
	}
}

// doctor: ok on a healthy project, the fix where a check fails, exit 1.
func TestDoctorCommand(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "doctor", "-p", "demo/mobile/android").must(t, 0, "ok    server", "GitLab 17.5", "ok    keys", "answers (no event sent")
	if r := c.run("", "doctor", "-p", "8"); !strings.HasPrefix(r.stdout, "demo/mobile/android\n") {
		t.Fatalf("doctor -p 8 heads its checks with %q", strings.SplitN(r.stdout, "\n", 2)[0])
	}
	r := c.run("", "doctor", "-p", "demo/mobile/ios", "--json")
	r.must(t, 1, `"status": "fail"`, "OLD_SENTRY_DSN")
	c.run("", "doctor", "-p", "demo/mobile-app").must(t, 1, "fail  settings", "errtrack settings create -p demo/mobile-app")
	c.run("", "doctor", "-p", "demo/web-shop", "--send-test-event").must(t, 0, "the test event was accepted by ingestion at")
	if c.server.Envelopes(1) != 2 {
		t.Fatalf("%d events", c.server.Envelopes(1))
	}
}
