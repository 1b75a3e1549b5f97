package main

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

// login --sentry checks the token with that Sentry and stores it for that
// host only; a refused token is not stored; status names where each Sentry
// token comes from and never prints it; logout removes it.
func TestSentryLoginStatusLogout(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	ts := httptest.NewServer(mocksentry.New(mocksentry.Options{}))
	defer ts.Close()
	c.run("not-a-token", "login", "--sentry", ts.URL).must(t, 1, "not stored", "refused the token")
	if len(c.sentry.m) != 0 {
		t.Fatalf("a refused token was stored: %v", c.sentry.m)
	}
	r := c.run(mocksentry.TokenWrite+"\n", "login", "--sentry", ts.URL+"/")
	r.must(t, 0, "Logged in to Sentry at "+ts.URL, "project:write", "deleting a key takes project:admin")
	if c.sentry.m[ts.URL] != mocksentry.TokenWrite || len(c.sentry.m) != 1 || len(c.store.m) != 0 {
		t.Fatalf("stored %v, GitLab's %v", c.sentry.m, c.store.m)
	}
	st := c.run("", "status")
	st.must(t, 0, "Sentry "+ts.URL, "from the system keyring")
	if strings.Contains(st.stdout+st.stderr, mocksentry.TokenWrite) {
		t.Fatal("status printed the Sentry token")
	}
	var js statusJSON
	st = c.run("", "status", "--json", "--sentry", ts.URL)
	if err := json.Unmarshal([]byte(st.stdout), &js); err != nil || len(js.Sentry) != 1 || !js.Sentry[0].Stored || len(js.Sentry[0].Scopes) == 0 {
		t.Fatalf("%v %s", err, st.stdout)
	}
	c.run("", "logout", "--sentry", ts.URL).must(t, 0, "Logged out of Sentry at "+ts.URL)
	if len(c.sentry.m) != 0 {
		t.Fatalf("still stored: %v", c.sentry.m)
	}
	c.run("", "status").must(t, 0)
	if r := c.run("", "status"); strings.Contains(r.stdout, "Sentry ") {
		t.Fatalf("a host logged out of is still listed: %s", r.stdout)
	}
}

// SENTRY_AUTH_TOKEN is for SENTRY_URL's host (sentry.io when unset).
func TestSentryEnvToken(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	ts := httptest.NewServer(mocksentry.New(mocksentry.Options{}))
	defer ts.Close()
	c.env["SENTRY_AUTH_TOKEN"] = mocksentry.TokenRead
	c.env["SENTRY_URL"] = ts.URL
	r := c.run("", "status")
	r.must(t, 0, "Sentry "+ts.URL, "environment (SENTRY_AUTH_TOKEN)")
	if strings.Contains(r.stdout+r.stderr, mocksentry.TokenRead) {
		t.Fatal("status printed the token")
	}
	delete(c.env, "SENTRY_URL")
	c.run("", "status").must(t, 0, "Sentry https://sentry.io", "environment (SENTRY_AUTH_TOKEN)")
}

// Sentry's other token kinds: a user token limited to one organization
// (401 on GET /api/0/) is accepted and said to be limited; an organization
// token (org:ci) is stored with the warning that it cannot list keys.
func TestSentryLoginTokenKinds(t *testing.T) {
	c := newCLI(t, nil)
	ts := httptest.NewServer(mocksentry.New(mocksentry.Options{}))
	defer ts.Close()
	c.run(mocksentry.TokenOrgScoped+"\n", "login", "--sentry", ts.URL).must(t, 0, "Logged in to Sentry at "+ts.URL, "Limited to: organization demo")
	if c.sentry.m[ts.URL] != mocksentry.TokenOrgScoped {
		t.Fatalf("stored %v", c.sentry.m)
	}
	c.run("", "status", "--sentry", ts.URL).must(t, 0, "Limited: to demo")
	c.run(mocksentry.TokenOrgCI+"\n", "login", "--sentry", ts.URL).must(t, 0, "org:ci", "an organization token cannot list a project's keys", "/settings/account/api/auth-tokens/")
	c.run("sntrys_unknown\n", "login", "--sentry", ts.URL).must(t, 1, "not stored")
}
