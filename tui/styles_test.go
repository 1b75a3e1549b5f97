package tui

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
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

func TestLightBackgroundAndNoColor(t *testing.T) {
	h, _ := console(t, "1")
	dark := h.m.View().Content
	h.send(tea.BackgroundColorMsg{Color: lightGray{}})
	if h.m.isDark || h.m.View().Content == dark {
		t.Fatal("styles not rebuilt for a light background")
	}
	t.Setenv("NO_COLOR", "1")
	h, _ = console(t, "1")
	if v := h.m.View().Content; strings.Contains(v, "38;2;") || strings.Contains(v, "48;2;") {
		t.Fatal("colours drawn under NO_COLOR")
	}
	if !strings.Contains(h.m.View().Content, "\x1b[7m") {
		t.Fatal("no reverse video for the selection under NO_COLOR")
	}
}

type lightGray struct{}

func (lightGray) RGBA() (r, g, b, a uint32) { return 0xeeee, 0xeeee, 0xeeee, 0xffff }
