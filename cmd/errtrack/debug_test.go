package main

import (
	"strings"
	"testing"
)

// --debug prints every request and answer with headers, the token as
// [redacted]; ERRTRACK_DEBUG=api does the same.
func TestDebugOutput(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	r := c.run("", "settings", "disable", "-p", "demo/web-shop", "--debug")
	r.must(t, 0, "> PATCH "+c.url+"/api/v4/projects/demo%2Fweb-shop/error_tracking/settings?active=false",
		"> Private-Token: [redacted]", "< 200 OK", `< {"active":false`)
	c.env["ERRTRACK_DEBUG"] = "api"
	c.run("", "keys", "list", "-p", "1").must(t, 0, "> GET "+c.url+"/api/v4/projects/1/error_tracking/client_keys?page=1&per_page=100", "< X-Total: 2")
	delete(c.env, "ERRTRACK_DEBUG")
	if r := c.run("", "keys", "list", "-p", "1"); strings.Contains(r.stderr, "> GET") {
		t.Fatal("debug output without --debug")
	}
}
