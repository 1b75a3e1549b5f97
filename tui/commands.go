package tui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
)

// Cmd factories: each copies what it needs, calls the API off the UI
// goroutine, and returns one typed message.

const projectsPerPage = 50

func withTimeout(d time.Duration) (context.Context, context.CancelFunc) {
	if d <= 0 {
		d = 60 * time.Second
	}
	return context.WithTimeout(context.Background(), d)
}

// apiCmd runs call off the UI goroutine with a deadline.
func apiCmd(timeout time.Duration, call func(ctx context.Context) tea.Msg) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := withTimeout(timeout)
		defer cancel()
		return call(ctx)
	}
}

func loadUserCmd(api API, timeout time.Duration) tea.Cmd {
	return apiCmd(timeout, func(ctx context.Context) tea.Msg {
		u, _, err := api.CurrentUser(ctx)
		if err != nil {
			return userLoadedMsg{err: err}
		}
		t, _, _ := api.TokenInfo(ctx) // optional: OAuth tokens and old GitLab cannot tell
		return userLoadedMsg{user: u, token: t}
	})
}

func loadProjectsCmd(api API, timeout time.Duration, id uint64, search string, page int) tea.Cmd {
	return apiCmd(timeout, func(ctx context.Context) tea.Msg {
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

func loadSettingsCmd(api API, timeout time.Duration, id uint64, p apiclient.ProjectRef) tea.Cmd {
	return apiCmd(timeout, func(ctx context.Context) tea.Msg {
		s, _, err := api.GetSettings(ctx, p)
		return settingsLoadedMsg{id: id, settings: s, err: err}
	})
}

func loadKeysCmd(api API, timeout time.Duration, id uint64, p apiclient.ProjectRef) tea.Cmd {
	return apiCmd(timeout, func(ctx context.Context) tea.Msg {
		keys, _, err := api.ListClientKeys(ctx, p)
		return keysLoadedMsg{id: id, keys: keys, err: err}
	})
}

func createSettingsCmd(api API, timeout time.Duration, id uint64, p apiclient.ProjectRef, active, integrated bool) tea.Cmd {
	return apiCmd(timeout, func(ctx context.Context) tea.Msg {
		s, _, err := api.CreateSettings(ctx, p, active, integrated)
		return settingsChangedMsg{id: id, what: "created", settings: s, err: err}
	})
}

func updateSettingsCmd(api API, timeout time.Duration, id uint64, p apiclient.ProjectRef, what string, active bool, integrated *bool) tea.Cmd {
	return apiCmd(timeout, func(ctx context.Context) tea.Msg {
		s, _, err := api.UpdateSettings(ctx, p, active, integrated)
		return settingsChangedMsg{id: id, what: what, settings: s, err: err}
	})
}

func createKeyCmd(api API, timeout time.Duration, id uint64, p apiclient.ProjectRef, rotating *apiclient.ClientKey) tea.Cmd {
	return apiCmd(timeout, func(ctx context.Context) tea.Msg {
		k, _, err := api.CreateClientKey(ctx, p)
		return keyCreatedMsg{id: id, key: k, rotating: rotating, err: err}
	})
}

func deleteKeyCmd(api API, timeout time.Duration, id uint64, p apiclient.ProjectRef, asked apiclient.ClientKey) tea.Cmd {
	return apiCmd(timeout, func(ctx context.Context) tea.Msg {
		k, resp, err := api.DeleteClientKey(ctx, p, asked.ID)
		return keyDeletedMsg{id: id, asked: asked, key: k, gone: err == nil && resp != nil && resp.AlreadyGone, err: err}
	})
}

func loginCmd(login func(context.Context, string, string) (API, error), timeout time.Duration, host, token string) tea.Cmd {
	return apiCmd(timeout, func(ctx context.Context) tea.Msg {
		api, err := login(ctx, host, token)
		return loginDoneMsg{api: api, host: host, err: err}
	})
}

func connectCmd(connect func(context.Context) (API, error), timeout time.Duration) tea.Cmd {
	return apiCmd(timeout, func(ctx context.Context) tea.Msg {
		api, err := connect(ctx)
		return connectedMsg{api: api, err: err}
	})
}

// msgCmd wraps a message as a command.
func msgCmd(m tea.Msg) tea.Cmd { return func() tea.Msg { return m } }

func statusCmd(kind statusKind, text string) tea.Cmd {
	return msgCmd(statusMsg{text: text, kind: kind})
}

// after schedules a message; a variable so tests can run without waiting.
var after = tea.Tick
