package main

import (
	"strings"
	"testing"
)

// --host's help names every place a host comes from, in the order
// resolveHost takes them, the default host set with config set host too.
func TestHostHelpNamesTheDefaultHost(t *testing.T) {
	c := newCLI(t, nil)
	for _, args := range [][]string{{"--help"}, {"keys", "list", "--help"}} {
		r := c.run("", args...)
		line := ""
		for _, l := range strings.Split(r.stdout, "\n") {
			if strings.Contains(l, "--host string") {
				line = l
			}
		}
		want := []string{"$GITLAB_HOST", "git remote", "errtrack config set host", "last host used", "https://gitlab.com"}
		at := 0
		for _, w := range want {
			i := strings.Index(line[at:], w)
			if i < 0 {
				t.Fatalf("%v: --host help lacks %q after position %d: %s", args, w, at, line)
			}
			at += i
		}
	}
}
