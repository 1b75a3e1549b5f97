package main

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
	"github.com/errtrack/errtrack/internal/hosturl"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/rotation"
)

// The built console against `errtrack mock-server`, scoped to a group:
// ctrl+g changes the scope, ctrl+a marks the maintained projects, ctrl+o r
// asks the variable, shows the plan (going on with the key a command's
// interrupted group rotation created, from the commands' journal), and on
// y rotates exactly the planned projects with progress and a report.
func TestConsoleGroupRotationInTmux(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	url, sentryURL := startMockServers(t, "--latency", "150ms")
	ctx := context.Background()
	c, err := apiclient.New(url, mockserver.TokenMaintainer)
	if err != nil {
		t.Fatal(err)
	}
	// `keys rotate --group` was interrupted after creating demo/mobile/ios's
	// new key: its ledger, in the state directory, says so.
	state := t.TempDir()
	created, _, err := c.CreateClientKey(ctx, apiclient.ProjectID(7))
	if err != nil {
		t.Fatal(err)
	}
	store, err := ledger.OpenLedger(state)
	if err != nil {
		t.Fatal(err)
	}
	host, _ := hosturl.Normalize(url)
	if err := store.Append(ledger.Record{Kind: ledger.KindRotation, ID: "r-interrupted", Host: host, ProjectID: 7, ProjectPath: "demo/mobile/ios",
		OldKeyID: 901, NewKeyID: created.ID, Named: &ledger.Variable{Key: "SENTRY_DSN", Scope: "*"}, Phase: ledger.PhaseCreated,
		FrontEnd: rotation.FrontEndGroupCommand, Started: time.Now()}, true); err != nil {
		t.Fatal(err)
	}
	store.Close()

	// demo/legacy-api's key is its Sentry's: rotated there, with the
	// Sentry's token for that host.
	s := newTmux(t, "GITLAB_TOKEN="+mockserver.TokenMaintainer, "ERRTRACK_STATE_DIR="+state, "SENTRY_URL="+sentryURL, "SENTRY_AUTH_TOKEN="+mocksentry.TokenAdmin)
	s.tmux("respawn-pane", "-k", "-t", "e2e", bin+" --host "+url+" --group demo --include-subgroups; echo EXITED rc=$?; sleep 30")
	s.waitFor("Projects of group demo and its subgroups")
	s.waitFor("not a Maintainer (Developer)")
	s.keys("C-g")
	s.waitFor("Group: demo")
	s.waitFor("[x] with its subgroups")
	s.keys("Tab", "Enter")
	s.waitFor("Projects of group demo on")
	s.waitGone("demo/mobile/ios")
	s.keys("C-g")
	s.waitFor("[ ] with its subgroups")
	s.keys("Tab", "Enter")
	s.waitFor("demo/mobile/ios")
	s.keys("C-a")
	s.waitFor("7 marked")
	s.keys("C-o")
	s.waitFor("7 marked projects")
	s.keys("r")
	s.waitFor("Variable: SENTRY_DSN")
	s.keys("Enter")
	// The demo user is no Owner of the groups: the console asks before
	// deleting old keys a group variable may still hold.
	s.waitFor("whose groups' variables are unknown?")
	s.answer("y")
	s.waitFor("in 3 of 7 marked projects?")
	s.waitRow("demo/mobile/ios", fmt.Sprintf("key %d, made before", created.ID), "SENTRY_DSN → new DSN", "old key deleted")
	s.waitRow("demo/web-shop", "new key for 1", "SENTRY_DSN → new DSN")
	s.waitRow("demo/legacy-api", `new key for "Production"`)
	s.answer("y")
	s.waitFor("/3: ") // the progress, wherever the user is
	s.waitFor("Rotating the keys SENTRY_DSN holds: done in 3 projects")
	s.waitRow("changed", "demo/web-shop", "Rotated")

	if ids := keyIDs(t, c, 7); !slices.Equal(ids, []int64{created.ID}) {
		t.Fatalf("ios keys %v, want only key %d, the interrupted run's", ids, created.ID)
	}
	if ids := keyIDs(t, c, 1); len(ids) != 2 || slices.Contains(ids, 1) {
		t.Fatalf("web-shop keys %v", ids)
	}
	if ids := keyIDs(t, c, 8); !slices.Equal(ids, []int64{902}) {
		t.Fatalf("android (skipped) keys %v", ids)
	}
	store, err = ledger.OpenLedger(state)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if open := store.Records(ledger.Record.IsOpen); len(open) != 0 {
		t.Fatalf("the ledger keeps %+v open after the run finished", open)
	}
	if rec, _ := store.Get("r-interrupted"); rec.Phase != ledger.PhaseDone {
		t.Fatalf("the interrupted rotation ended %s", rec.Phase)
	}
	s.answer("Escape")
	s.waitGone("RESULT") // the report's table
	s.waitGone("7 marked")
	s.waitFor("ctrl+o last report")
	s.keys("C-o")
	s.waitFor("done in 3 projects")
	s.answer("Escape")
	s.waitGone("done in 3 projects") // an Escape and a key at once read as alt+key
	s.keys("C-c")
	s.waitFor("EXITED rc=0")
}

func keyIDs(t *testing.T, c *apiclient.Client, project int64) []int64 {
	t.Helper()
	keys, _, err := c.ListClientKeys(context.Background(), apiclient.ProjectID(project))
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, k := range keys {
		ids = append(ids, k.ID)
	}
	return ids
}
