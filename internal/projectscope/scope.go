package projectscope

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/fanout"
)

// Which projects a change acts on is decided here, once, from what GitLab
// sends where it sends it: a group's listing asked for min_access_level=40
// is the server's own answer to "maintained" (a share into the group
// counts, capped by the share's role); the projects with a lower role come
// from a second listing, each read whole (GET /projects/:id, the only
// answer with permissions) so that the role they are skipped for can be
// named. Archived projects are skipped: GitLab would still take error
// tracking changes on them (admin_operations is not among the abilities an
// archived project loses), but an archived project is one nobody meant to
// change.

// ScopeAPI is what deciding a group change's projects needs.
type ScopeAPI interface {
	ListGroupProjectsWith(ctx context.Context, g apiclient.GroupRef, o apiclient.GroupProjectsOptions) ([]apiclient.Project, *apiclient.Response, error)
	GetProject(ctx context.Context, p apiclient.ProjectRef) (*apiclient.Project, *apiclient.Response, error)
}

// GroupProjects reads the projects of a group a change looks at, in the
// server's order: every project the user has a role in, shared ones
// included. A project is acted on when SkipReason gives none.
func GroupProjects(ctx context.Context, api ScopeAPI, ref apiclient.GroupRef, subgroups bool) ([]apiclient.Project, error) {
	var maintained, all []apiclient.Project
	merr, aerr := fanout.Both(func() (err error) {
		maintained, _, err = api.ListGroupProjectsWith(ctx, ref, apiclient.GroupProjectsOptions{Subgroups: subgroups, MinAccessLevel: apiclient.MaintainerAccess})
		return err
	}, func() (err error) {
		all, _, err = api.ListGroupProjectsWith(ctx, ref, apiclient.GroupProjectsOptions{Subgroups: subgroups, MinAccessLevel: apiclient.GuestAccess})
		return err
	})
	if err := FirstErr(merr, aerr); err != nil {
		return nil, err
	}
	byID := make(map[int64]bool, len(maintained))
	for _, p := range maintained {
		byID[p.ID] = true
	}
	var out []apiclient.Project
	var below []int // indexes in out of the projects to read whole
	for _, p := range all {
		if byID[p.ID] {
			out = append(out, maintainedRecord(p, maintained))
			delete(byID, p.ID)
			continue
		}
		below = append(below, len(out))
		out = append(out, p)
	}
	for _, p := range maintained { // listed between the two listings
		if byID[p.ID] {
			out = append(out, p)
		}
	}
	gone := make([]bool, len(out))
	var mu sync.Mutex
	var lookupErr error
	fanout.ForEach(len(below), func(i int) {
		idx := below[i]
		rec, _, err := api.GetProject(ctx, apiclient.ProjectID(out[idx].ID))
		mu.Lock()
		defer mu.Unlock()
		switch {
		case errors.Is(err, apiclient.ErrProjectNotFound):
			gone[idx] = true // deleted, or out of reach, since it was listed
		case err != nil && lookupErr == nil:
			lookupErr = fmt.Errorf("your role in project %s could not be read: %w", out[idx].PathWithNamespace, err)
		case err == nil:
			rec.Archived = rec.Archived || out[idx].Archived
			out[idx] = *rec
			if out[idx].Permissions == nil {
				// A record without permissions says nothing of the role:
				// the listing said it is below Maintainer.
				out[idx].Permissions = &apiclient.Permissions{}
			}
		}
	})
	if lookupErr != nil {
		return nil, lookupErr
	}
	kept := out[:0]
	for i, p := range out {
		if !gone[i] {
			kept = append(kept, p)
		}
	}
	return kept, nil
}

// maintainedRecord is p as the maintained listing sent it.
func maintainedRecord(p apiclient.Project, maintained []apiclient.Project) apiclient.Project {
	for _, m := range maintained {
		if m.ID == p.ID {
			return m
		}
	}
	return p
}

func FirstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// MaintainedProjects reads every project the user maintains, as the
// all-projects listing gives them (min_access_level=40, not archived),
// then the archived ones, which SkipReason skips.
func MaintainedProjects(ctx context.Context, api interface {
	ListAllProjects(ctx context.Context) ([]apiclient.Project, *apiclient.Response, error)
	ListArchivedProjects(ctx context.Context) ([]apiclient.Project, *apiclient.Response, error)
}) ([]apiclient.Project, error) {
	var live, archived []apiclient.Project
	lerr, aerr := fanout.Both(func() (err error) {
		live, _, err = api.ListAllProjects(ctx)
		return err
	}, func() (err error) {
		archived, _, err = api.ListArchivedProjects(ctx)
		return err
	})
	if err := FirstErr(lerr, aerr); err != nil {
		return nil, err
	}
	return append(live, archived...), nil
}

// SkipReason says why a change leaves p alone, from what GitLab sent of p;
// "" when it acts on it. A listing's record (no permissions in it) was
// chosen by the listing; a project's own record names the role.
func SkipReason(p apiclient.Project) string {
	switch {
	case p.Archived:
		return "archived: errtrack leaves archived projects alone (unarchive it in GitLab to change it)"
	case p.Permissions == nil || p.AccessLevel() >= apiclient.MaintainerAccess:
		return ""
	case p.AccessLevel() > 0:
		return "you are " + article(RoleName(p.AccessLevel())) + " here, not a Maintainer"
	}
	return "your role here is below Maintainer (it comes through a group: a share or a parent group)"
}

// SharedInto reports a project that lives outside the group it was listed
// for: shared into the group from another namespace.
func SharedInto(groupPath, projectPath string) bool {
	if groupPath == "" || projectPath == "" {
		return false
	}
	g := strings.ToLower(strings.Trim(groupPath, "/")) + "/"
	return !strings.HasPrefix(strings.ToLower(projectPath), g)
}

// RoleName is GitLab's name of an access level.
func RoleName(level int) string {
	switch {
	case level >= apiclient.OwnerAccess:
		return "Owner"
	case level >= apiclient.MaintainerAccess:
		return "Maintainer"
	case level >= apiclient.DeveloperAccess:
		return "Developer"
	case level >= apiclient.ReporterAccess:
		return "Reporter"
	case level >= planner:
		return "Planner"
	case level >= apiclient.GuestAccess:
		return "Guest"
	case level > 0:
		return "Minimal access"
	}
	return "no role"
}

// planner is GitLab's Planner role (17.7), between Guest and Reporter.
const planner = 15

func article(role string) string {
	if role == "Owner" {
		return "an Owner"
	}
	return "a " + role
}

// Ancestors are the groups above a project path, nearest first:
// "a/b/c" → "a/b", "a".
func Ancestors(path string) []string {
	var out []string
	for i := strings.LastIndex(path, "/"); i > 0; i = strings.LastIndex(path[:i], "/") {
		out = append(out, path[:i])
	}
	return out
}
