package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	mdLink     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	inlineCode = regexp.MustCompile("`[^`]*`")
	slugDrop   = regexp.MustCompile(`[^\p{L}\p{N} _-]`)
)

// headingSlugs are the anchors GitHub gives a page's headings.
func headingSlugs(text string) map[string]bool {
	slugs := map[string]bool{}
	inCode := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			inCode = !inCode
		}
		if inCode || !strings.HasPrefix(l, "#") {
			continue
		}
		h := strings.TrimSpace(strings.TrimLeft(l, "#"))
		s := slugDrop.ReplaceAllString(strings.ToLower(h), "")
		slugs[strings.ReplaceAll(s, " ", "-")] = true
	}
	return slugs
}

// TestDocsLinks: every relative link of README.md and docs/*.md names a
// file that exists and, with #anchor, a heading of it.
func TestDocsLinks(t *testing.T) {
	checked := 0
	for _, page := range docPages(t) {
		text, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		inCode := false
		for n, l := range strings.Split(string(text), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "```") {
				inCode = !inCode
			}
			if inCode {
				continue
			}
			for _, m := range mdLink.FindAllStringSubmatch(inlineCode.ReplaceAllString(l, ""), -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				checked++
				file, anchor, _ := strings.Cut(target, "#")
				path := page
				if file != "" {
					path = filepath.Join(filepath.Dir(page), file)
				}
				body, err := os.ReadFile(path)
				if err != nil {
					t.Errorf("%s:%d: %s does not resolve: %v", page, n+1, target, err)
					continue
				}
				if anchor != "" && !headingSlugs(string(body))[anchor] {
					t.Errorf("%s:%d: %s: %s has no heading #%s", page, n+1, target, path, anchor)
				}
			}
		}
	}
	if checked < 30 {
		t.Errorf("only %d relative links found: is the pattern still finding them?", checked)
	}
}
