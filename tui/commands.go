package tui

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/audit"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/tokens"
	"github.com/errtrack/errtrack/internal/wording"
)

// Cmd factories: each copies what it needs, calls the API off the UI
// goroutine within the request timeout, and returns one typed message.

const projectsPerPage = 50

// apiCmd runs call off the UI goroutine with a deadline.
func apiCmd(parent context.Context, timeout time.Duration, call func(ctx context.Context) tea.Msg) tea.Cmd {
	if timeout <= 0 {
		timeout = 60 * time.Second
	}
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(parent, timeout)
		defer cancel()
		return call(ctx)
	}
}

func loadTokenCmd(ctx context.Context, api API, timeout time.Duration) tea.Cmd {
	return apiCmd(ctx, timeout, func(ctx context.Context) tea.Msg {
		st, err := tokens.CheckToken(ctx, api)
		return tokenLoadedMsg{st: st, err: err}
	})
}

func loadProjectsCmd(ctx context.Context, api API, timeout time.Duration, id uint64, search string, page int) tea.Cmd {
	return apiCmd(ctx, timeout, func(ctx context.Context) tea.Msg {
		ps, resp, err := api.ListProjects(ctx, apiclient.ListProjectsOptions{Search: search, Page: page, PerPage: projectsPerPage})
		msg := projectsLoadedMsg{id: id, search: search, page: page, projects: ps, err: err}
		if err == nil {
			if resp != nil {
				msg.nextPage = resp.NextPage
			}
			msg.complete = msg.nextPage == 0
		}
		return msg
	})
}

// loadGroupProjectsCmd reads a group's projects whole: the list the
// console shows when scoped to the group.
func loadGroupProjectsCmd(ctx context.Context, api API, timeout time.Duration, id uint64, g apiclient.GroupRef, subgroups bool) tea.Cmd {
	return apiCmd(ctx, timeout, func(ctx context.Context) tea.Msg {
		// A group named by ID is shown by its path: read it alongside.
		path := make(chan string, 1)
		if g.Path == "" {
			go func() {
				grp, _, err := api.GetGroup(ctx, g)
				if err != nil {
					grp = &apiclient.Group{}
				}
				path <- grp.FullPath
			}()
		} else {
			path <- g.Path
		}
		ps, err := projectscope.GroupProjects(ctx, api, g, subgroups)
		return projectsLoadedMsg{id: id, page: 1, projects: ps, complete: err == nil, err: err, groupPath: <-path}
	})
}

func loadProjectCmd(ctx context.Context, api API, timeout time.Duration, id uint64, ref apiclient.ProjectRef) tea.Cmd {
	return apiCmd(ctx, timeout, func(ctx context.Context) tea.Msg {
		p, err := projectscope.ResolveProject(ctx, api, ref)
		return projectLoadedMsg{id: id, project: p, err: err}
	})
}

// loadOverviewCmd reads a project's overview; the ledger (led) says
// whether a migration carried it to a Sentry project.
func loadOverviewCmd(ctx context.Context, api API, timeout time.Duration, gen int, id int64, led *rotation.Rotations) tea.Cmd {
	return apiCmd(ctx, timeout, func(ctx context.Context) tea.Msg {
		return overviewLoadedMsg{gen: gen, id: id, o: audit.ProjectOverview(ctx, api, apiclient.ProjectID(id)).WithMigration(led, id)}
	})
}

func loadSettingsCmd(ctx context.Context, api API, timeout time.Duration, id uint64, p apiclient.ProjectRef) tea.Cmd {
	return apiCmd(ctx, timeout, func(ctx context.Context) tea.Msg {
		s, _, err := api.GetSettings(ctx, p)
		if errors.Is(err, apiclient.ErrSettingsNotFound) {
			return settingsLoadedMsg{id: id, val: settings{missing: true}}
		}
		return settingsLoadedMsg{id: id, val: settings{s: s}, err: err}
	})
}

// loadKeysCmd lists a project's keys where they are (keystore.KeysOf):
// GitLab's, read with the settings, or the Sentry's they name.
func loadKeysCmd(ctx context.Context, api API, d Deps, id uint64, p apiclient.ProjectRef) tea.Cmd {
	return apiCmd(ctx, d.RequestTimeout, func(ctx context.Context) tea.Msg {
		store, keys, err := keystore.KeysOf(ctx, api, p, d.Sentry)
		switch {
		case store == nil && err != nil: // the resolver's: the Sentry's token or address
			err = atSentry(nil, err)
		case store != nil && store.Backend() == keystore.BackendSentry:
			err = atSentry(store, err)
		}
		return keysLoadedMsg{id: id, store: store, keys: keys, err: err}
	})
}

func loadUsesCmd(ctx context.Context, api API, d Deps, id uint64, p projectscope.Project, keys []apiclient.ClientKey, s *apiclient.Settings, known bool) tea.Cmd {
	return apiCmd(ctx, d.RequestTimeout, func(ctx context.Context) tea.Msg {
		a, err := audit.KeyUses(ctx, api, p, keys, s, known)
		// Ages are GitLab keys' (by ID): a Sentry's have none.
		gitlab := len(keys) > 0 && keys[0].ID != 0
		if err == nil && d.KeysSeen != nil && p.ID != 0 && gitlab {
			ids := make([]int64, len(keys))
			for i, k := range keys {
				ids[i] = k.ID
			}
			// Ages are a help: when the state file fails they are left out.
			if ages, aerr := d.KeysSeen(d.Host, p, ids); aerr == nil {
				a.WithAges(ages)
			}
		}
		msg := usesLoadedMsg{id: id, audit: a, err: err}
		if err == nil {
			msg.policy = evaluatePolicy(d, a, keys)
		}
		return msg
	})
}

func doctorCmd(ctx context.Context, api API, timeout time.Duration, id uint64, p apiclient.ProjectRef, o audit.DoctorOptions, explain wording.Explainer, now time.Time) tea.Cmd {
	return apiCmd(ctx, timeout, func(ctx context.Context) tea.Msg {
		return doctorDoneMsg{id: id, checks: audit.Doctor(ctx, api, p, o, explain, now)}
	})
}

func loginCmd(ctx context.Context, login func(context.Context, string, string) (API, error), timeout time.Duration, host, token string) tea.Cmd {
	return apiCmd(ctx, timeout, func(ctx context.Context) tea.Msg {
		api, err := login(ctx, host, token)
		msg := loginDoneMsg{api: api, host: host, err: err}
		if err != nil && !errors.Is(err, apiclient.ErrUnauthorized) && !errors.Is(err, apiclient.ErrForbidden) {
			msg.retry = token
		}
		return msg
	})
}

func connectCmd(ctx context.Context, connect func(context.Context) (API, error), timeout time.Duration) tea.Cmd {
	return apiCmd(ctx, timeout, func(ctx context.Context) tea.Msg {
		api, err := connect(ctx)
		return connectedMsg{api: api, err: err}
	})
}
