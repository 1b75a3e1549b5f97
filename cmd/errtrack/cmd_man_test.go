package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestManPages(t *testing.T) {
	t.Setenv("SOURCE_DATE_EPOCH", "1700000000")
	dir := filepath.Join(t.TempDir(), "man1")
	c := newCLI(t, nil)
	c.run("", "man", dir).must(t, 0)
	for page, want := range map[string][]string{
		"errtrack.1":                 {`.TH "ERRTRACK" "1" "Nov 2023" "errtrack ` + appVersion() + `" "errtrack manual"`, "errtrack-keys(1)", `\-\-version`},
		"errtrack-keys-rotate.1":     {`.TH "ERRTRACK-KEYS-ROTATE"`, `\-\-old`, "errtrack keys rotate --project group/web-shop"},
		"errtrack-completion-bash.1": {"bash"},
	} {
		b, err := os.ReadFile(filepath.Join(dir, page))
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(string(b), w) {
				t.Errorf("%s lacks %q:\n%s", page, w, b)
			}
		}
		if strings.Contains(string(b), "Auto generated") {
			t.Errorf("%s has cobra's dated footer", page)
		}
	}
	c.run("", "man").must(t, 2, "exactly one DIR")
}
