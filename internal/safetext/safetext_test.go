package safetext

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestClean(t *testing.T) {
	cases := map[string]string{
		"web-shop":                          "web-shop",
		"naïve café":                        "naïve café",
		"\x1b]0;pwned\x07shop":              "shop",
		"\x1b]2;title\x1b\\shop":            "shop",
		"a\x1b[2Jb":                         "ab",
		"a\x1b[31;1mred\x1b[0m":             "ared",
		"\x1bcreset":                        "reset",
		"line1\nline2\ttab\r":               "line1 line2 tab ",
		"bell\x07del\x7f":                   "belldel",
		"c1\u009b2Jcsi":                     "c1csi",
		"osc\u009d0;x\u009cend":             "oscend",
		"bad\xffutf8":                       "bad\ufffdutf8",
		"bidi\u202egnp.exe":                 "bidi\ufffdgnp.exe",
		"web\u200bshop":                     "web\ufffdshop",
		"a\u2060b\u2063c\ufeffd\u00ade":     "a\ufffdb\ufffdc\ufffdd\ufffde",
		"tag\U000e0041\U000e007f":           "tag\ufffd\ufffd",
		"n\u206a\u206fo":                    "n\ufffd\ufffdo",
		"line\u2028sep\u2029para":           "line sep para",
		"hangul\u3164filler":                "hangul\ufffdfiller",
		"\x1bP1$r\x1b\\dcs":                 "dcs",
		"trailing esc \x1b":                 "trailing esc ",
		"unterminated \x1b]0;never stopped": "unterminated ",
	}
	for in, want := range cases {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestExcerpt(t *testing.T) {
	if got := Excerpt("<html>\n  <body>Bad   Gateway</body>\n</html>", 20); got != "<html> <body>Bad Gat…" {
		t.Errorf("Excerpt = %q", got)
	}
	if got := Excerpt("short", 20); got != "short" {
		t.Errorf("Excerpt = %q", got)
	}
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"plain", "\x1b[2J", "\x1b]0;x\x07", "\xff\xfe", "a\u009b31m", "\x1bP\x1b\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Clean(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out of %q", s)
		}
		if strings.ContainsRune(out, 0x1b) {
			t.Fatalf("ESC survived in %q", out)
		}
		for _, r := range out {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == 0x2028 || r == 0x2029 {
				t.Fatalf("control or invisible %U survived in %q", r, out)
			}
		}
		if Clean(out) != out {
			t.Fatalf("Clean not idempotent on %q", s)
		}
	})
}
