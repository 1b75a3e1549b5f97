// Package safetext makes untrusted server text safe to draw on a terminal.
//
// A project name or error message comes from a server the user does not
// control; drawn raw, an escape sequence in it could retitle, clear or
// reprogram the terminal. Clean removes every control character and escape
// sequence, replaces invalid UTF-8, and shows invisible format characters
// as U+FFFD, keeping ordinary text intact.
package safetext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Clean returns s with escape sequences (CSI, OSC, DCS, APC, PM, SOS and
// two-byte ESC sequences) and all other control characters removed, and
// invalid UTF-8 replaced by U+FFFD. Newlines, tabs and the Unicode line and
// paragraph separators become spaces so a value always fits on the line it is
// drawn on. Invisible format characters (zero-width spaces and joiners,
// bidi controls, the BOM, soft hyphens, tag characters, Hangul fillers)
// become a visible U+FFFD: dropped, they would let two different names
// look identical.
func Clean(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError)
			i++
			continue
		case r == 0x1b: // ESC
			i = skipEscape(s, i+size)
			continue
		case r == 0x9b: // C1 CSI
			i = skipCSI(s, i+size)
			continue
		case r == 0x9d || r == 0x90 || r == 0x9e || r == 0x9f || r == 0x98: // C1 OSC, DCS, PM, APC, SOS
			i = skipString(s, i+size)
			continue
		case r == '\n' || r == '\t' || r == '\r' || r == 0x2028 || r == 0x2029:
			b.WriteByte(' ')
		case unicode.IsControl(r):
			// dropped
		case Invisible(r):
			b.WriteRune(utf8.RuneError)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// Excerpt cleans s and cuts it to at most n runes, marking the cut.
func Excerpt(s string, n int) string {
	s = strings.Join(strings.Fields(Clean(s)), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || c >= 0x80 {
			return false
		}
	}
	return true
}

// Invisible reports characters that draw as nothing (or reorder what is
// around them), so text holding them displays as something it is not:
// every format character (Cf: zero-width space and joiners, bidi controls,
// U+2060-U+206F, the BOM, the soft hyphen, tag characters) and the
// blank-looking letters and marks below.
func Invisible(r rune) bool {
	if r < 0xad {
		return false
	}
	switch r {
	case 0x034f, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x3164, 0xffa0, 0x180b, 0x180c, 0x180d, 0x180f:
		return true
	}
	return unicode.Is(unicode.Cf, r)
}

// skipEscape skips what follows an ESC byte at position i.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', '^', '_', 'X':
		return skipString(s, i+1)
	}
	// Two-byte sequences (ESC c, ESC 7 ...) and nF sequences (ESC ( B).
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI skips parameter and intermediate bytes up to and including the final byte.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		i++
		if c >= 0x40 && c <= 0x7e {
			return i
		}
		if c < 0x20 || c > 0x7e {
			return i - 1
		}
	}
	return i
}

// skipString skips an OSC/DCS/APC/PM/SOS body up to BEL or ST (ESC \ or 0x9c).
func skipString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		}
		i++
	}
	return i
}
