package main

import (
	"encoding/json"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// errtrack login links the same token page as the console's login screen:
// the token's name and its api scope filled in.
func TestLoginLinksTheConsolesTokenPage(t *testing.T) {
	c := newCLI(t, nil)
	c.tty = true
	delete(c.env, "GITLAB_TOKEN")
	r := c.run("demo-maintainer-token\n", "login", "--host", c.url)
	r.must(t, 0, c.url+"/-/user_settings/personal_access_tokens?name=errtrack&scopes=api")
}

func TestLoginStatusLogout(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.env["GITLAB_TOKEN"] = ""
	c.run("nonsense-token\n", "login").must(t, 1, "was not stored", "did not accept your token")
	if len(c.store.m) != 0 {
		t.Fatal("a refused token was stored")
	}
	c.run(mockserver.TokenReadOnly+"\n", "login").must(t, 0, "Logged in to", "demo-maintainer", "read_api", "lacks the api scope")
	c.run(mockserver.TokenExpiring+"\n", "login").must(t, 0, "expires in 3 days", "rotate it: errtrack auth rotate")
	if c.store.m[c.url] != mockserver.TokenExpiring {
		t.Fatalf("stored under %v", c.store.m)
	}
	c.run("", "status").must(t, 0, c.url, "system keyring", "demo-maintainer", "Expires:")
	c.run("", "auth", "status").must(t, 0, "system keyring")
	c.env["GITLAB_TOKEN"] = mockserver.TokenMaintainer
	c.run("", "status").must(t, 0, "GITLAB_TOKEN")
	c.env["GITLAB_TOKEN"] = ""
	c.run("", "keys", "list", "-p", "1").must(t, 0, "glet_")
	c.run("", "logout").must(t, 0, "Logged out")
	c.run("", "logout").must(t, 0, "No token was stored")
	c.run("", "status").must(t, 1, "Not logged in")
	c.run("", "login").must(t, 2, "no token given")
	c.run("two words\n", "login").must(t, 2, "spaces")
	c.tty = true
	c.run(mockserver.TokenMaintainer+"\n", "login").must(t, 0, "Token (input hidden)", "personal_access_tokens", "Logged in")
}

func TestStatusJSON(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.env["GITLAB_TOKEN"] = mockserver.TokenExpiring
	r := c.run("", "status", "--json")
	r.must(t, 0)
	var st map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || st["user"] != "demo-maintainer" || st["days_left"].(float64) != 3 || st["logged_in"] != true {
		t.Fatalf("%s: %v", r.stdout, err)
	}
	c.env["GITLAB_TOKEN"] = mockserver.TokenRevoked
	r = c.run("", "status", "--json")
	r.must(t, 1, "revoked")
	if err := json.Unmarshal([]byte(r.stdout), &st); err != nil || st["logged_in"] != false || st["error"] == nil {
		t.Fatalf("%s: %v", r.stdout, err)
	}
}
