package main

// What errtrack remembers in its state directory beside the ledger: when
// it first saw each key, and each project's path.

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectpath"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/seen"
)

// firstSeen words a key's age for a table: "2026-11-20 (created)",
// "2026-11-20", "-" when unknown.
func firstSeen(e seen.Entry) string {
	switch {
	case e.First.IsZero():
		return "-"
	case e.Created:
		return e.First.Local().Format(time.DateOnly) + " (created)"
	}
	return e.First.Local().Format(time.DateOnly)
}

// keysSeen is the file of when errtrack first saw each key, in its state
// directory; nil without one.
func (a *app) keysSeen() *seen.Store {
	dir, err := a.stateDir()
	if err != nil {
		return nil
	}
	return seen.Open(filepath.Join(dir, "keys-seen.json"))
}

// keysSeenBatch is a run's batch of the keys-seen file (nil without a state
// directory) and the flush that writes it once, at the end of the run; warn
// says a failed write on stderr.
func (a *app) keysSeenBatch(warn bool) (*seen.Batch, func()) {
	s := a.keysSeen()
	if s == nil {
		return nil, func() {}
	}
	b := s.Batch()
	return b, func() {
		if err := b.Flush(); err != nil && warn {
			fmt.Fprintf(a.stderr, "errtrack: warning: the keys' first sightings could not be saved: %s\n", explain.Text(err.Error()))
		}
	}
}

// projectPathsBatch is a run's batch of the project-path file (nil without
// a state directory) and the flush that writes it once; a failure costs
// only a round trip next time.
func (a *app) projectPathsBatch() (*projectpath.Batch, func()) {
	s := a.projectPaths()
	if s == nil {
		return nil, func() {}
	}
	b := s.Batch()
	return b, func() { _ = b.Flush() }
}

// projectPaths is the file of each project's path by ID, in errtrack's
// state directory; nil without one.
func (a *app) projectPaths() *projectpath.Store {
	dir, err := a.stateDir()
	if err != nil {
		return nil
	}
	return projectpath.Open(filepath.Join(dir, "project-paths.json"))
}

// lastPath is the path project id of host had when errtrack last read
// it: remembered by a command, or in the console's recent projects.
func (a *app) lastPath(paths *projectpath.Batch, host string, id int64) string {
	if paths != nil {
		if p := paths.Lookup(host, id); p != "" {
			return p
		}
	}
	c, _, _ := a.loadConfigQuietly()
	for _, r := range c.Recent[host] {
		if r.ID == id && r.Path != "" {
			return r.Path
		}
	}
	return ""
}

// rememberPath records the path of a project the server named; a failure costs
// only a round trip next time.
func (a *app) rememberPath(host string, p projectscope.Project) {
	if p.ID == 0 || p.Path == "" {
		return
	}
	if s := a.projectPaths(); s != nil {
		_ = s.Remember(host, p.ID, p.Path)
	}
}

// keyCreated remembers a key errtrack created, so its age is exact.
func (a *app) keyCreated(host string, p apiclient.ProjectRef, key int64) {
	if s := a.keysSeen(); s != nil {
		_ = s.Created(host, p.ID, p.Path, key, a.now())
	}
}

// withAges adds when errtrack first saw each GitLab key; a Sentry key's
// age is its dateCreated, as Sentry answers it. Ages are a help: a state
// directory that cannot be written costs them, not the report.
func (a *app) withAges(store *seen.Batch, host string, au *audit.Audit, warn bool) {
	if au.Backend == keystore.BackendSentry {
		for i := range au.Keys {
			au.Keys[i].Seen = seen.Entry{First: au.Keys[i].Key.CreatedAt}
		}
		return
	}
	if store == nil {
		return
	}
	ids := make([]int64, len(au.Keys))
	for i, k := range au.Keys {
		ids[i] = k.Key.ID
	}
	ages, err := store.Observe(host, au.Project.ID, au.Project.Path, ids, a.now())
	if err != nil {
		if warn {
			fmt.Fprintf(a.stderr, "errtrack: warning: the keys' ages are not shown: %s\n", explain.Text(err.Error()))
		}
		return
	}
	au.WithAges(ages)
}
