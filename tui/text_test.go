package tui

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
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

// A DSN wider than the line is cut after a separator that falls in the
// line's second half, else where it must: never "http://" alone on a line
// (issue 31), which a cut at the first separator left.
func TestWrapCutsDSNAtSeparators(t *testing.T) {
	dsn := "http://glet_9225a73f3bd251c08623d569eab27540@127.0.0.1:18123/errortracking/api/v1/projects/1"
	got := wrap("DSN: "+dsn, 40)
	want := []string{"DSN:", "http://glet_9225a73f3bd251c08623d569eab2", "7540@127.0.0.1:18123/errortracking/api/", "v1/projects/1"}
	if !slices.Equal(got, want) {
		t.Fatalf("%q", got)
	}
	if got := strings.Join(got[1:], ""); got != dsn {
		t.Fatalf("the pieces make %q", got)
	}
	if got := wrap(strings.Repeat("x", 50), 20); !slices.Equal(got, []string{strings.Repeat("x", 20), strings.Repeat("x", 20), strings.Repeat("x", 10)}) {
		t.Fatalf("%q", got)
	}
}

// pad and truncate fit a string to its cells, wide characters and styling
// included, whether its width was measured before or not (widths are kept
// per string) and however short it is in bytes.
func TestPadAndTruncateFitCells(t *testing.T) {
	styled := lipgloss.NewStyle().Bold(true).Render("fleet/app-0042 — 日本語のプロジェクト名")
	for _, s := range []string{"", "ab", "日本語", "日本語のプロジェクト名とその説明が長いもの", styled, "e\u0301e\u0301e\u0301"} {
		for _, w := range []int{1, 2, 3, 5, 8, 40} {
			for range 2 { // measured, then kept
				if got := lipgloss.Width(pad(s, w)); got != w {
					t.Fatalf("pad(%q, %d) is %d cells", s, w, got)
				}
				if got := truncate(s, w); lipgloss.Width(got) > w || (lipgloss.Width(s) <= w && got != s) {
					t.Fatalf("truncate(%q, %d) = %q", s, w, got)
				}
			}
		}
	}
}
