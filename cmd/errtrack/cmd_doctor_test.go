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
