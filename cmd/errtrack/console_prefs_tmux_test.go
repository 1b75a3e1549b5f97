package main

import (
	"regexp"
	"strings"
	"testing"
)

// A light terminal inside tmux (which answers no OSC 11) gets the light
// palette from COLORFGBG, --theme or ERRTRACK_THEME; --theme dark wins over
// COLORFGBG. The selected row's background tells: 189 is the light
// palette's in 256 colours, 238 the dark one's.
func TestConsoleThemeInTmux(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	for _, tc := range []struct {
		args string
		env  []string
		want string
	}{
		{"", []string{"COLORFGBG=0;15"}, "48;5;189"},
		{" --theme light", nil, "48;5;189"},
		{"", []string{"ERRTRACK_THEME=light"}, "48;5;189"},
		{" --theme dark", []string{"COLORFGBG=0;15"}, "48;5;238"},
		{"", nil, "48;5;238"},
	} {
		s := consoleIn(t, 80, 24, bin+" --demo"+tc.args, tc.env...)
		s.waitFor("integrated · on · 2 keys")
		if row := lineOf(t, s.colours(), "demo/web-shop"); !strings.Contains(row, tc.want) {
			t.Fatalf("%s %v: the selected row is %q, want %s", tc.args, tc.env, row, tc.want)
		}
		s.keys("C-c")
	}
}

// sgrColour finds a colour in an escape sequence: a foreground or a
// background, of 8, 16, 256 or 24-bit colours.
var sgrColour = regexp.MustCompile(`\x1b\[(?:[0-9]*;)*(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;[0-9]+)*m`)

// --accessible draws no colour anywhere: not on the projects list (its
// filter's prompt and placeholder), a project, or a question.
func TestConsoleAccessibleHasNoColour(t *testing.T) {
	t.Parallel()
	s := consoleIn(t, 80, 24, binary(t)+" --demo --accessible")
	s.waitFor("integrated · on · 2 keys")
	check := func(where string) {
		t.Helper()
		if c := sgrColour.FindString(s.colours()); c != "" {
			t.Fatalf("%s: colour %q with --accessible:\n%s", where, c, s.colours())
		}
	}
	check("the projects list")
	s.keys("Enter")
	s.waitFor("Client keys (2)")
	s.waitFor("USED IN")
	check("a project")
	s.keys("d")
	s.waitFor("Delete client key 1")
	check("a question")
	s.keys("C-c")
}
