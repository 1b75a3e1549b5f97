package tui

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/errtrack/errtrack/internal/safetext"
)

// clean makes server text safe to draw: no escape sequences or controls.
func clean(s string) string { return safetext.Clean(s) }

// truncate cuts s to width cells with an ellipsis; s may hold styling.
func truncate(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if len(s) <= width || cells(s) <= width {
		return s // no character takes more cells than bytes
	}
	return ansi.Truncate(s, width, "…")
}

// pad truncates or pads s to exactly width cells.
func pad(s string, width int) string {
	s = truncate(s, width)
	if w := cells(s); w < width {
		s += strings.Repeat(" ", width-w)
	}
	return s
}

// cells is lipgloss.Width(s), measured once per string: a frame's lines
// are mostly the last frame's (rows kept drawn), and measuring walks every
// grapheme cluster.
func cells(s string) int {
	if len(s) < 32 {
		return lipgloss.Width(s)
	}
	measured.Lock()
	defer measured.Unlock()
	if w, ok := measured.m[s]; ok {
		return w
	}
	if measured.m == nil || len(measured.m) >= 4096 {
		measured.m = make(map[string]int, 4096)
	}
	w := lipgloss.Width(s)
	measured.m[s] = w
	return w
}

var measured struct {
	sync.Mutex
	m map[string]int
}

// wrap breaks plain text into lines of at most width cells, between words
// where it can, inside a word only when the word alone is wider.
func wrap(s string, width int) []string {
	if width <= 0 {
		return nil
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		out = append(out, wrapPara(para, width)...)
	}
	for i, l := range out {
		out[i] = strings.TrimRight(l, " ")
	}
	return out
}

// wrapPara breaks a line at spaces only: never inside a DSN, a URL or a
// hyphenated word, which ansi.Wrap would split at its hyphens. A word wider
// than the line gets lines of its own, cut where it must be.
func wrapPara(p string, width int) []string {
	var lines []string
	var cur strings.Builder
	curW := 0
	flush := func() {
		lines = append(lines, cur.String())
		cur.Reset()
		curW = 0
	}
	for _, w := range strings.Split(p, " ") {
		ww := ansi.StringWidth(w)
		if curW > 0 && curW+1+ww > width {
			flush()
		}
		if ww > width {
			if curW > 0 {
				flush()
			}
			parts := breakWord(w, width)
			lines = append(lines, parts[:len(parts)-1]...)
			w, ww = parts[len(parts)-1], ansi.StringWidth(parts[len(parts)-1])
		}
		if curW > 0 {
			cur.WriteByte(' ')
			curW++
		}
		cur.WriteString(w)
		curW += ww
	}
	flush()
	return lines
}

// breakWord cuts a word wider than width into lines: a URL or DSN after
// one of its separators ("…@host:port/", "…/projects/") where one falls on
// the second half of the line, so each piece reads as a part of it;
// elsewhere where it must (never "http://" alone on a line).
func breakWord(w string, width int) []string {
	if ansi.Strip(w) != w || !isASCII(w) {
		return strings.Split(ansi.Hardwrap(w, width, false), "\n")
	}
	var out []string
	for len(w) > width {
		cut := strings.LastIndexAny(w[:width], "/@?&#") + 1
		if cut <= width/2 {
			cut = width // no separator late enough: a plain cut
		}
		out = append(out, w[:cut])
		w = w[cut:]
	}
	return append(out, w)
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// wrapHanging wraps a line of a box: its wrapped lines start under the
// text it continues, after its indent, a bullet ("• ", "↳ fix: "), a
// label ("Fix: ") or a label column ("ok    ", "Used in:    "). A line
// without spaces (a DSN) keeps none: it is copied whole.
func wrapHanging(line string, width int) []string {
	hang := hangOf(line)
	text := strings.TrimLeft(line, " ")
	indent := len(line) - len(text)
	if hang > width/2 || indent >= width {
		return wrap(line, width)
	}
	first := wrap(text, width-indent)
	out := []string{strings.Repeat(" ", indent) + first[0]}
	if len(first) == 1 {
		return out
	}
	rest := strings.TrimLeft(strings.TrimPrefix(text, first[0]), " ")
	for _, l := range wrap(rest, width-hang) {
		out = append(out, strings.Repeat(" ", hang)+l)
	}
	return out
}

// labelColumn finds the gap after a line's first words ("ok    server",
// "Used in:    SENTRY_DSN"): two spaces or more, within the first cells.
var labelColumn = regexp.MustCompile(`^ *\S[^ ]*(?: [^ ]+)?  +`)

// bulletLabel finds a bullet or a short label ending in ": ".
var bulletLabel = regexp.MustCompile(`^ *(?:(?:• |↳ |- )(?:[a-z]+: )?|[A-Z][a-z]+: )`)

// hangOf is where a line's wrapped lines start, in cells.
func hangOf(line string) int {
	if !strings.Contains(strings.TrimSpace(line), " ") {
		return 0
	}
	if m := labelColumn.FindString(line); m != "" && lipgloss.Width(m) <= 24 {
		return lipgloss.Width(m)
	}
	if m := bulletLabel.FindString(line); m != "" {
		return lipgloss.Width(m)
	}
	return len(line) - len(strings.TrimLeft(line, " "))
}

// fitLines makes text exactly height lines of at most width cells.
func fitLines(text string, width, height int) string {
	lines := strings.Split(text, "\n")
	if len(lines) > height {
		lines = lines[:max(height, 0)]
	}
	for i, l := range lines {
		lines[i] = truncate(l, width)
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// capitalize starts s with a capital letter.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
