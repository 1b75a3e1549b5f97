package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
)

// A project URL obeys the host rules of --host: user info before the host
// is refused (the token never goes to "evil"), and a host named only by a
// project URL does not become the remembered one for GITLAB_TOKEN.
func TestProjectURLHostRules(t *testing.T) {
	c := newCLI(t, nil)
	var hits atomic.Int32
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer evil.Close()
	delete(c.env, "GITLAB_HOST")
	evilHost := strings.TrimPrefix(evil.URL, "http://")
	c.run("", "keys", "list", "-p", "http://gitlab.example.com@"+evilHost+"/g/app").must(t, 2, "user info", evilHost)
	if hits.Load() != 0 {
		t.Fatal("a request went to the host after @")
	}
	// A plain URL of another host works once, with the environment's
	// token, but is not remembered for the next command.
	c.run("", "keys", "list", "-p", c.url+"/demo/web-shop").must(t, 0, "glet_")
	if b, err := os.ReadFile(c.cfg); err == nil && strings.Contains(string(b), c.url) {
		t.Fatalf("the URL's host was remembered:\n%s", b)
	}
}
