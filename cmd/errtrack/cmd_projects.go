package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/spf13/cobra"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/wording"
)

// projectJSON is one project of `projects list --json`.
type projectJSON struct {
	ID            int64        `json:"id"`
	Path          string       `json:"path"`
	Name          string       `json:"name"`
	ErrorTracking trackingJSON `json:"error_tracking"`
	// Shared: shared into the group from another namespace. Skipped: why a
	// change to the group's projects leaves it alone.
	Shared  bool   `json:"shared,omitempty"`
	Skipped string `json:"skipped,omitempty"`
}

type trackingJSON struct {
	Summary    string `json:"summary"`
	Configured bool   `json:"configured"`
	Active     bool   `json:"active"`
	Integrated bool   `json:"integrated"`
	Keys       *int   `json:"keys"` // null when not counted
	KeysKnown  bool   `json:"keys_known"`
	// KeysSource is "sentry" when the keys are a Sentry project's, counted
	// there (a Sentry-backed project); absent for GitLab's own keys.
	KeysSource string `json:"keys_source,omitempty"`
	Error      string `json:"error,omitempty"`
	// SentryProject (ORG/SLUG) and SentryURL: the Sentry a migration
	// carried the project to, while GitLab's settings do not name it.
	SentryProject string `json:"sentry_project,omitempty"`
	SentryURL     string `json:"sentry_url,omitempty"`
}

func (a *app) projectsCmd() *cobra.Command {
	g := &globalFlags{}
	cmd := &cobra.Command{
		Use:     "projects",
		Short:   "List the projects you maintain and how their error tracking is set up",
		Example: "  errtrack projects list\n  errtrack projects list --json | jq '.[] | select(.error_tracking.configured | not) | .path'",
		Args:    noArgs,
	}
	addHostFlags(cmd.PersistentFlags(), g)
	cmd.PersistentFlags().BoolVar(&g.jsonOut, "json", false, "print JSON instead of a table")
	var gf groupFlags
	list := &cobra.Command{
		Use:     "list [--group G [--include-subgroups]]",
		Short:   "List the projects you maintain, with their error tracking state",
		Example: "  errtrack projects list\n  errtrack projects list --json\n  errtrack projects list --group web --include-subgroups",
		Args:    noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := a.deadline(cmd.Context(), g)
			defer cancel()
			c, host, err := a.hostClient(ctx, g)
			if err != nil {
				return err
			}
			var projects []apiclient.Project
			groupPath := ""
			if gf.group != "" {
				ref, perr := apiclient.ParseGroupRef(gf.group)
				if perr != nil {
					return usagef("--group: %v", perr)
				}
				// The group's projects you have a role in: the ones a change
				// would skip say why.
				projects, err = projectscope.GroupProjects(ctx, c, ref, gf.subgroups)
				if err == nil && ref.Path == "" && len(projects) > 0 {
					if g, _, gerr := c.GetGroup(ctx, ref); gerr == nil {
						ref.Path = g.FullPath // to tell shared projects
					}
				}
				groupPath = ref.Path
			} else {
				projects, err = projectscope.MaintainedProjects(ctx, c)
			}
			if err != nil {
				return err
			}
			overviews := overviewAll(ctx, c, projects)
			// A migrated project reports to its Sentry project: the ledger
			// says which (none read, GitLab's settings are shown).
			if led, closeLedger, lerr := a.rotations(host, rotation.FrontEndCommand); lerr == nil {
				for i, p := range projects {
					overviews[i] = overviews[i].WithMigration(led, p.ID)
				}
				closeLedger()
			}
			a.rememberHost(host)
			// A list with rows left unknown is not a complete answer: the
			// exit status says so, after the rows that are known.
			incomplete := func() error {
				n, limited := 0, false
				for _, o := range overviews {
					if o.Unknown() {
						n++
						limited = limited || errors.Is(o.Err, apiclient.ErrRateLimited)
					}
				}
				if n == 0 {
					return nil
				}
				again := "run the command again"
				if limited && g.timeout > 0 {
					// Waiting out the rate limit would have passed --timeout:
					// the same command would stop at the same place.
					again = fmt.Sprintf("the rate limit's waits ran past --timeout %s: run the command again with a longer one (GitLab.com allows 2,000 requests a minute, about 2 per project: --timeout 10m for 10,000 projects)", g.timeout)
				}
				return reportedf(a, "the error tracking of %d of %s could not be read (see the rows marked unknown): %s", n, wording.Projects(len(projects), ""), again)
			}
			if g.jsonOut {
				out := make([]projectJSON, len(projects))
				counts := a.sentryKeyCounts(ctx, g, overviews)
				for i, p := range projects {
					out[i] = projectJSON{ID: p.ID, Path: p.PathWithNamespace, Name: p.Name, ErrorTracking: a.trackingJSON(overviews[i], counts[i]),
						Shared: projectscope.SharedInto(groupPath, p.PathWithNamespace), Skipped: projectscope.SkipReason(p)}
				}
				if err := writeJSON(a.stdout, out); err != nil {
					return err
				}
				return incomplete()
			}
			if len(projects) == 0 {
				fmt.Fprintln(a.stdout, "You maintain no projects on "+host+".")
				return nil
			}
			tw := newTable(a.stdout)
			fmt.Fprintln(tw, "ID\tPATH\tNAME\tERROR TRACKING")
			for i, p := range projects {
				name := p.Name
				if projectscope.SharedInto(groupPath, p.PathWithNamespace) {
					name += " (shared)"
				}
				state := overviews[i].Summary()
				if p.Archived {
					state += " · archived: skipped by changes"
				}
				fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", p.ID, explain.Text(p.PathWithNamespace), explain.Text(name), state)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			return incomplete()
		},
	}
	list.Flags().StringVar(&gf.group, "group", "", "the projects of this group (ID or path)")
	list.Flags().BoolVar(&gf.subgroups, "include-subgroups", false, "with --group, its subgroups' projects too")
	cmd.AddCommand(list)
	return cmd
}

// overviewAll reads every project's overview, a few at a time.
func overviewAll(ctx context.Context, c *apiclient.Client, projects []apiclient.Project) []audit.Overview {
	out := make([]audit.Overview, len(projects))
	sem := make(chan struct{}, overviewConcurrency)
	var wg sync.WaitGroup
	for i, p := range projects {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i] = audit.ProjectOverview(ctx, c, apiclient.ProjectID(p.ID))
		}()
	}
	wg.Wait()
	return out
}

// trackingJSON is a project's error tracking in the list's JSON; counted,
// when set, is its Sentry project's keys (never GitLab's count for them).
func (a *app) trackingJSON(o audit.Overview, counted *keyCount) trackingJSON {
	t := trackingJSON{Summary: o.Summary(), Configured: o.Settings != nil, KeysKnown: o.KeysKnown}
	if o.Migrated() {
		t.SentryProject, t.SentryURL = o.SentryProject, o.SentryURL
	}
	if o.Settings != nil {
		t.Active, t.Integrated = o.Settings.Active, o.Settings.Integrated
	}
	switch {
	case o.Err == nil && counted != nil:
		t.KeysSource, t.KeysKnown = counted.source, counted.known
		if counted.known {
			n := counted.n
			t.Keys = &n
		}
	case o.Err == nil:
		n := o.Keys
		t.Keys = &n
	default:
		t.Error = a.explain(o.Err, "run the command again")
	}
	return t
}
