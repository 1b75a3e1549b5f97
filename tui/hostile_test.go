package tui

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/apiclienttest"
)

// evil is a string carrying every kind of terminal attack: title change,
// screen clear, reset, DCS, cursor moves, bell, C1 controls, bidi override.
const evil = "\x1b]0;pwned\x07\x1b[2J\x1bc\x1bP1$r\x1b\\\x1b[10;10H\x07\u009b31m\u202eevil\x1b[?1049l"

var onlySGR = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// checkSafe fails when anything but colour and style sequences reaches the screen.
func checkSafe(t *testing.T, raw string) {
	t.Helper()
	rest := onlySGR.ReplaceAllString(raw, "")
	for _, r := range rest {
		if r == '\n' {
			continue
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x202e {
			t.Fatalf("control %U reached the screen: %q", r, rest)
		}
	}
}

// hostileGitLab answers every endpoint with escape sequences in every string field.
func hostileGitLab() http.Handler {
	j := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		p := r.URL.Path
		switch {
		case p == "/api/v4/user":
			fmt.Fprintf(w, `{"id":1,"username":%s,"name":%s}`, j("user"+evil), j(evil))
		case p == "/api/v4/personal_access_tokens/self":
			fmt.Fprintf(w, `{"id":1,"scopes":["api",%s],"expires_at":%s}`, j("api"+evil), j("2026-11-23"))
		case p == "/api/v4/projects":
			fmt.Fprintf(w, `[{"id":1,"name":%s,"path_with_namespace":%s}]`, j("Shop"+evil), j("grp/shop"+evil))
		case p == "/api/v4/projects/1":
			fmt.Fprintf(w, `{"id":1,"name":%s,"path_with_namespace":%s}`, j("Shop"+evil), j("grp/shop"+evil))
		case strings.HasSuffix(p, "/error_tracking/settings"):
			fmt.Fprintf(w, `{"active":true,"integrated":true,"project_name":%s,"sentry_external_url":%s,"api_url":%s}`, j(evil), j("https://x/"+evil), j(evil))
		case strings.HasSuffix(p, "/error_tracking/client_keys") && r.Method == "GET":
			fmt.Fprintf(w, `[{"id":1,"active":true,"public_key":%s,"sentry_dsn":%s}]`, j("glet_"+evil), j("https://"+evil+"@h/1"))
		case r.Method == "POST":
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprintf(w, `{"message":%s}`, j("403 "+evil))
		default:
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprint(w, "<html>"+evil+"</html>")
		}
	})
}

// hostileServer serves hostileGitLab and returns its URL.
func hostileServer(t *testing.T) string {
	ts := httptest.NewServer(hostileGitLab())
	t.Cleanup(ts.Close)
	return ts.URL
}

// TestHostileServerDrawsSafely goes through every screen with a server whose
// every string is an attack: nothing but style sequences may be drawn.
func TestHostileServerDrawsSafely(t *testing.T) {
	url := hostileServer(t)
	c, err := apiclient.New(url, "fake-token", apiclienttest.WithRetries(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, Deps{API: c, Host: url})
	checkSafe(t, h.m.View().Content)
	h.mustSee("grp/shop")
	h.key("enter")
	checkSafe(t, h.m.View().Content)
	h.mustSee("glet_", "Client keys (1)") // integrated: it opened on its keys
	h.key("enter")                        // key detail
	checkSafe(t, h.m.View().Content)
	h.key("esc", "d") // delete confirmation names the key
	checkSafe(t, h.m.View().Content)
	h.key("y") // DELETE answers an HTML 502 page
	checkSafe(t, h.m.View().Content)
	h.mustSee("HTTP 502")
	h.key("n") // POST answers 403 with a hostile message
	checkSafe(t, h.m.View().Content)
	h.key("tab")
	checkSafe(t, h.m.View().Content)
	h.mustSee("Project name", "https://x/")
	h.key("?")
	checkSafe(t, h.m.View().Content)
}

func TestHostileServerTextIsSanitized(t *testing.T) {
	ts := hostileServer(t)
	c, _ := apiclient.New(ts, "fake-token-x", apiclienttest.WithRetries(0, 0))
	h := newHarness(t, Deps{API: c, Host: ts, Project: "1"})
	checkSafe(t, h.m.View().Content)
	h.mustSee("glet_") // integrated: it opens on its keys
	h.key("tab")
	checkSafe(t, h.m.View().Content)
	h.mustSee("Project name")
}
