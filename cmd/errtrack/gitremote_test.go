package main

import (
	"os/exec"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

func TestParseRemote(t *testing.T) {
	t.Parallel()
	for in, want := range map[string][2]string{
		"git@gitlab.com:group/app.git":                    {"https://gitlab.com", "group/app"},
		"git@gitlab.example.com:group/sub/app":            {"https://gitlab.example.com", "group/sub/app"},
		"ssh://git@gitlab.example.com:2222/group/app.git": {"https://gitlab.example.com", "group/app"},
		"https://gitlab.example.com/group/app.git":        {"https://gitlab.example.com", "group/app"},
		"https://user@gitlab.example.com:8443/g/a.git/":   {"https://gitlab.example.com:8443", "g/a"},
		"http://127.0.0.1:8080/demo/web-shop.git":         {"http://127.0.0.1:8080", "demo/web-shop"},
	} {
		h, p, ok := parseRemote(in)
		if !ok || h != want[0] || p != want[1] {
			t.Errorf("%s: %s %s %v", in, h, p, ok)
		}
	}
	for _, bad := range []string{"/srv/repos/app.git", "file:///x/y.git", "git@host:app.git", "https://host/"} {
		if h, p, ok := parseRemote(bad); ok {
			t.Errorf("%s: %s %s", bad, h, p)
		}
	}
}

// Inside a clone, --project may be left out: the remote's project is used
// when errtrack has a token for its host, or its host is the one given.
func TestProjectFromGitRemote(t *testing.T) {
	t.Parallel()
	requireTool(t, "git")
	c := newCLI(t, nil)
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"remote", "add", "upstream", "https://gitlab.example.com/other/thing.git"}, {"remote", "add", "origin", c.url + "/demo/paused.git"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	c.dir = dir
	// GITLAB_HOST names the remote's host.
	c.run("", "keys", "list").must(t, 0, "using project demo/paused on "+c.url+", from git remote origin (its host is GITLAB_HOST)", "glet_")
	// No host given: the keyring has a token for the remote's host.
	delete(c.env, "GITLAB_HOST")
	delete(c.env, "GITLAB_TOKEN")
	c.store.m[c.url] = mockserver.TokenMaintainer
	c.run("", "settings", "get").must(t, 0, "errtrack has a token for its host", "Active:        no")
	// A host with no token and none given: --project is needed.
	delete(c.store.m, c.url)
	c.run("", "keys", "list").must(t, 2, "--project is required here")
	// Outside a clone, as before.
	c.dir = t.TempDir()
	c.store.m[c.url] = mockserver.TokenMaintainer
	c.run("", "keys", "list").must(t, 2, "--project is required")
}
