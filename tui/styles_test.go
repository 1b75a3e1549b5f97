package tui

import (
	"regexp"
	"strings"
	"testing"
)

// ansiLightGrey is ANSI colour 7 as a foreground (SGR 37, or 38;5;7):
// light grey, unseen on a white terminal.
var ansiLightGrey = regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?(?:37|38;5;7)m`)

// The filter's "/ " prompt, focused or not, and a blurred field's text are
// drawn in colours that show on a light terminal as on a dark one.
func TestFieldsReadOnALightTerminal(t *testing.T) {
	for _, dark := range []bool{false, true} {
		st := NewStyles(dark, false)
		in := newTextInput("/ ", "filter")
		in.SetValue("web")
		for _, focused := range []bool{false, true} {
			if focused {
				in.Focus()
			}
			out := fieldView(in, st)
			if !strings.Contains(out, "/") || ansiLightGrey.MatchString(out) {
				t.Errorf("dark %v, focused %v: %q draws in light grey", dark, focused, out)
			}
		}
	}
}
