package tui

import "testing"

// GitLab's integrated keys cannot be turned off: a on one says so, names
// what can be done instead, and sends nothing; the help bar never offers it.
func TestGitLabKeyCannotBeDisabled(t *testing.T) {
	g := demoGitLab(t)
	f := faulty(g.api)
	h := newHarness(t, Deps{API: f, Host: g.url, Project: "1"})
	h.mustSee("Client keys (2)")
	h.mustNotSee("disable key")
	h.key("a")
	h.mustSay("Key 1 cannot be disabled: GitLab's integrated client keys can only be deleted (d).")
	for _, k := range g.srv.Keys(1) {
		if !k.Active {
			t.Fatalf("key %d was turned off", k.ID)
		}
	}
	if n := f.count("DeleteClientKey") + f.count("CreateClientKey"); n != 0 {
		t.Fatalf("%d key writes sent", n)
	}
}
