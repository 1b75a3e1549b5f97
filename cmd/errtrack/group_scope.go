package main

import (
	"context"
	"fmt"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/wording"
)

// groupRefs reads the group's projects and keeps those a change acts on
// (projectscope.SkipReason decides); each one left out is named on stderr with
// the reason, so a group that yields nothing says why.
func (a *app) groupRefs(ctx context.Context, c *apiclient.Client, ref apiclient.GroupRef, subgroups bool) ([]apiclient.ProjectRef, error) {
	ps, err := projectscope.GroupProjects(ctx, c, ref, subgroups)
	if err != nil {
		return nil, err
	}
	var refs []apiclient.ProjectRef
	for _, p := range ps {
		if skip := projectscope.SkipReason(p); skip != "" {
			fmt.Fprintf(a.stderr, "errtrack: skipped %s: %s\n", explain.Text(p.PathWithNamespace), explain.Text(skip))
			continue
		}
		refs = append(refs, apiclient.ProjectRef{ID: p.ID, Path: p.PathWithNamespace})
	}
	if len(refs) == 0 {
		fmt.Fprintf(a.stderr, "errtrack: group %s holds no project you maintain (of %s listed)\n", explain.Text(ref.String()), wording.Projects(len(ps), ""))
	}
	return refs, nil
}

// planName names a project in a group's plan, labelled when it is shared
// into the group from another namespace.
func planName(g apiclient.Group, p projectscope.Project) string {
	if projectscope.SharedInto(g.FullPath, p.Path) {
		return p.Name() + " (shared into " + g.FullPath + ")"
	}
	return p.Name()
}
