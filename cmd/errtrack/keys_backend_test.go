package main

import "testing"

// GitLab's integrated keys have no switch, name or rate limit: each command
// that would change one says so in the command line's terms, and nothing
// is sent to change a key.
func TestGitLabKeysHaveNoSwitchNameOrRateLimit(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "keys", "update", "-p", "demo/web-shop", "1", "--active=false").must(t, 1, "whose keys have no name, switch or rate limit", "'keys create' and 'keys delete'")
	c.run("", "keys", "create", "-p", "demo/web-shop", "--rate-limit", "100/1h").must(t, 1, "GitLab's integrated keys, which have no name or rate limit", "leave out --name and --rate-limit")
	c.run("", "keys", "rotate", "-p", "demo/web-shop", "--old", "1", "--soft", "--yes").must(t, 1, "which cannot be disabled: rotate it without it")
	keys := c.server.Keys(1)
	if len(keys) != 2 || !keys[0].Active || !keys[1].Active {
		t.Fatalf("keys changed: %+v", keys)
	}
}
