package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

func TestProjectsList(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	c.run("", "projects", "list").must(t, 0, "ERROR TRACKING", "demo/web-shop", "integrated · on · 2 keys", "Sentry · on", "not set up")
	r := c.run("", "projects", "list", "--json")
	var ps []map[string]any
	// demo/* maintained (ios and android included), ops/api, partner/sdk
	// (maintained through its share into ops), then ops/old-dashboard,
	// archived: listed apart, and skipped by changes.
	if err := json.Unmarshal([]byte(r.stdout), &ps); err != nil || len(ps) != 10 {
		t.Fatalf("%s: %v", r.stdout, err)
	}
	if last := ps[9]; last["path"] != "ops/old-dashboard" || !strings.HasPrefix(fmt.Sprint(last["skipped"]), "archived") {
		t.Fatalf("the archived project: %v", last)
	}
	for _, p := range ps {
		if p["path"] == "demo/web-shop" {
			et := p["error_tracking"].(map[string]any)
			if et["keys"].(float64) != 2 || et["integrated"] != true || et["configured"] != true {
				t.Fatalf("%v", et)
			}
		}
	}
}

func TestProjectsListGroup(t *testing.T) {
	t.Parallel()
	c := newCLI(t, nil)
	r := c.run("", "projects", "list", "--group", "demo/mobile")
	r.must(t, 0, "demo/mobile/ios", "integrated · on · 1 key", "demo/mobile/kiosk", "no access (Maintainer role needed)")
	if strings.Contains(r.stdout, "demo/web-shop") {
		t.Fatal(r.stdout)
	}
	c.run("", "projects", "list", "--group", "nope").must(t, 1, "Group not found")
}

// A listing whose rate-limit waits would pass --timeout ends at once with
// the rows it could not read marked, exit 1, and says to give it longer.
func TestProjectsListRateLimitedPastTimeout(t *testing.T) {
	t.Parallel()
	srv, _ := mockserver.New(mockserver.Options{ScaleProjects: 30, RateLimit: 20})
	c := newCLI(t, srv)
	c.server = srv
	start := time.Now()
	r := c.run("", "projects", "list", "--timeout", "3s")
	r.must(t, 1, "could not be read", "ran past --timeout 3s: run the command again with a longer one")
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %s", d)
	}
}
