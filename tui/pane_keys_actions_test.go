package tui

import (
	"context"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// A read_api token reads: nothing that writes is offered, and the screen says why.
func TestReadOnlyToken(t *testing.T) {
	g := newGitLab(t, mockserver.Options{}, mockserver.TokenReadOnly)
	h := newHarness(t, Deps{API: g.api, Host: g.url, Project: "1"})
	h.mustSee("Read-only token", "Client keys (2)")
	h.mustNotSee("n new", "d delete", "R rotate")
	h.key("n", "d", "R")
	h.mustNotSee("Delete client key", "Created")
	if g.srv.KeyCount(1) != 2 {
		t.Fatal("a read-only token changed keys")
	}
	h.key("tab")
	h.mustSee("Read-only token (read_api)")
	h.mustNotSee("a disable")
	h.key("a")
	h.mustNotSee("Disable error tracking?")
}

// v on a key sends one test event after a question.
func TestVerifyKey(t *testing.T) {
	h, g := console(t, "1")
	h.key("v")
	h.mustSay("Send a test event with key 1 of demo/web-shop?", "recorded in the project")
	h.key("n")
	if g.srv.Envelopes(1) != 0 {
		t.Fatal("sent after No")
	}
	h.key("v", "y")
	h.mustSay("Key 1 of demo/web-shop: the test event was accepted by ingestion (HTTP 200).")
	g.api.DeleteClientKey(context.Background(), apiclient.ProjectID(1), 1)
	h.key("v", "y")
	h.mustSay("refused the test event (HTTP 401")
}

// v on a key whose event a quota dropped (429) says so: not refused, no
// word of an inactive or deleted key.
func TestVerifyKeyRateLimited(t *testing.T) {
	g := demoGitLab(t)
	api := faulty(g.api)
	h := newHarness(t, Deps{API: api, Host: g.url, Project: "1"})
	api.refuseEvents(429)
	h.key("v", "y")
	h.mustSay("rate-limited the test event (HTTP 429)", "The key was not refused")
	h.mustNotSee("inactive or deleted")
}

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
