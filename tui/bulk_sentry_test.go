package tui

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

// A console bulk rotation over a group of Sentry-backed projects (mock
// server --scale-sentry), in process: the plan and the run resolve the
// projects' Sentry projects in the group layer's workers at once (go test
// -race), and each project ends with one new key its SENTRY_DSN holds.
func TestBulkRotationOfSentryBackedProjects(t *testing.T) {
	const n = 4
	var ss *mocksentry.Server
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { ss.ServeHTTP(w, r) }))
	t.Cleanup(ts.Close)
	ss = mocksentry.New(mocksentry.Options{PublicURL: ts.URL, ScaleProjects: n})
	g := newGitLab(t, mockserver.Options{SentryURL: ts.URL, ScaleSentry: n,
		SentryDSNOf: func(slug string) string { return ss.DSN("demo", slug, "Default") }}, mockserver.TokenMaintainer)
	w := sentryWorld{g: g, ss: ss, ts: ts, url: ts.URL}
	old := map[string]string{}
	for i := 1; i <= n; i++ {
		old[mocksentry.FleetSlug(i)] = ss.Keys("demo", mocksentry.FleetSlug(i))[0].Public
	}
	h := newHarness(t, Deps{API: g.api, Host: g.url, Group: "sentry-fleet", Sentry: w.resolver(mocksentry.TokenAdmin)})
	h.mustSee("Projects of group sentry-fleet", "sentry-fleet/app-004")
	h.key("ctrl+a", "ctrl+o", "r", "enter")
	h.mustSay("in 4 of 4 marked projects?")
	h.runQueued(h.confirmRun())
	for len(h.m.sh.bulk.events) > 1 {
		h.step()
	}
	h.send(<-h.m.sh.bulk.events)
	h.dialogSays("done in 4 projects")
	for i := 1; i <= n; i++ {
		slug := mocksentry.FleetSlug(i)
		keys := ss.Keys("demo", slug)
		if len(keys) != 1 || keys[0].Public == old[slug] {
			t.Fatalf("%s keys after the rotation: %+v", slug, keys)
		}
		if v := g.srv.Variables(int64(2100 + i)); len(v) != 1 || !strings.Contains(v[0].Value, keys[0].Public) {
			t.Fatalf("%s: SENTRY_DSN does not hold the new key's DSN", slug)
		}
	}
}
