package main

import "testing"

// errtrack login links the same token page as the console's login screen:
// the token's name and its api scope filled in.
func TestLoginLinksTheConsolesTokenPage(t *testing.T) {
	c := newCLI(t, nil)
	c.tty = true
	delete(c.env, "GITLAB_TOKEN")
	r := c.run("demo-maintainer-token\n", "login", "--host", c.url)
	r.must(t, 0, c.url+"/-/user_settings/personal_access_tokens?name=errtrack&scopes=api")
}
