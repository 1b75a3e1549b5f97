package main

import "testing"

// The demo user is a Maintainer of the projects, no Owner of their groups,
// whose variables answer 403: with --yes nobody was shown them, so the old
// key stays unless --delete-with-unread-groups says it goes anyway; a
// group rotation leaves such projects alone, naming the group.
func TestRotateKeepsTheOldKeyWhileAGroupIsUnread(t *testing.T) {
	c := newCLI(t, nil)
	c.env["ERRTRACK_STATE_DIR"] = t.TempDir()
	c.run("", "keys", "rotate", "-p", "demo/web-shop", "--old", "1", "--update-variables", "--yes").
		must(t, 1, "variables of group demo are unknown", "needs the Owner role", "The old key is kept", "--delete-with-unread-groups")
	if !hasKey(c, 1, 1) {
		t.Fatal("key 1 deleted although group demo's variables were unread")
	}
	c.run("", "keys", "rotate", "-p", "demo/web-shop", "--old", "1", "--update-variables", "--yes", "--delete-with-unread-groups").must(t, 0, "Rotated")
	if hasKey(c, 1, 1) {
		t.Fatal("key 1 kept with --delete-with-unread-groups")
	}
	c.run("", "keys", "rotate", "--group", "demo/mobile", "--ci-variable", "SENTRY_DSN", "--dry-run").
		must(t, 1, "demo/mobile/ios", "not rotated: the variables of group", "demo are unknown", "Dry run: nothing was changed")
}

func hasKey(c *cli, project, id int64) bool {
	for _, k := range c.server.Keys(project) {
		if k.ID == id {
			return true
		}
	}
	return false
}
