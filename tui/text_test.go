package tui

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Words wrap at spaces: never inside a URL, a DSN or a hyphenated word.
func TestWrapKeepsWordsWhole(t *testing.T) {
	s := "The project will report to its external Sentry (https://sentry.example.com/api/0/projects/demo/legacy-api/) instead of GitLab's integrated backend."
	for _, w := range []int{30, 50, 70, 72} {
		lines := wrap(s, w)
		for _, l := range lines {
			if len([]rune(l)) > w {
				t.Fatalf("width %d: line %q too long", w, l)
			}
		}
		if !strings.Contains(strings.Join(lines, "\n"), "legacy-api") && w >= 62 {
			t.Fatalf("width %d: the URL was split:\n%s", w, strings.Join(lines, "\n"))
		}
		if strings.Join(strings.Fields(strings.Join(lines, "")), "") != strings.Join(strings.Fields(s), "") {
			t.Fatalf("width %d: text changed", w)
		}
	}
	if got := wrap("a well-known-hyphenated-word here", 12); got[0] != "a" || got[1] != "well-known-h" {
		t.Fatalf("%q", got)
	}
}

func TestCapitalizeKeepsUTF8(t *testing.T) {
	if got := capitalize("éclair"); got != "Éclair" || !utf8.ValidString(got) {
		t.Fatalf("%q", got)
	}
	if got := fitDSN("http://ééééééééé@h/1", "ééééééééé", 10); !utf8.ValidString(got) {
		t.Fatalf("%q", got)
	}
}
