package main

import (
	"net/http"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// A project an open group rotation set out to rotate, and a later run no
// longer reaches (it runs in a subgroup), is named by that run even when
// the run fails elsewhere: the user learns why the rotation stays open.
func TestGroupRotateNamesUnreachedProjectsWhenItFails(t *testing.T) {
	srv, _ := mockserver.New(mockserver.Options{})
	c := newCLI(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			w.WriteHeader(503)
			return
		}
		srv.ServeHTTP(w, r)
	}))
	c.server = srv
	c.env["ERRTRACK_STATE_DIR"] = t.TempDir()
	c.run("", "keys", "rotate", "--group", "demo", "--include-subgroups", "--ci-variable", "SENTRY_DSN", "--yes", "--delete-with-unread-groups").must(t, 1, "2 of 8 projects failed")
	c.run("", "keys", "rotate", "--group", "demo/mobile", "--ci-variable", "SENTRY_DSN", "--yes", "--delete-with-unread-groups").must(t, 1, "1 of 3 projects failed", "does not reach (project ID 1)")
}
