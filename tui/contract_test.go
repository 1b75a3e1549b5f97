package tui

import (
	"net/http/httptest"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
	"github.com/errtrack/errtrack/internal/contract"
)

// The console scoped to a group, against GitLab's answers as its source
// shapes them (no permissions in the listing): every maintained project is
// markable, the shared one labelled; the archived one and the one below
// Maintainer are dimmed with the reason and never marked.
func TestGroupConsoleAgainstGitLabsAnswers(t *testing.T) {
	s, err := contract.NewServer("ops")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	c, err := apiclient.New(ts.URL, "glpat-contract-test-token", apiclienttest.WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, Deps{API: c, Host: ts.URL, Group: "ops"})
	h.resize(140, 30)
	h.mustSee("Projects of group ops", "partner/sdk", "SDK  (shared)", "integrated · on · 1 key",
		"ops/old-dashboard", "archived: skipped", "partner/docs", "not a Maintainer", "ops/api")
	h.key("ctrl+a")
	h.mustSee("2 marked", "● partner/sdk", "● ops/api")
	h.mustNotSee("● partner/docs", "● ops/old-dashboard")
	if u := s.Unmatched(); len(u) > 0 {
		t.Errorf("requests no fixture answers: %v", u)
	}
}
