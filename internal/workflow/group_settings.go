package workflow

import (
	"context"
	"errors"
	"slices"

	"github.com/errtrack/errtrack/apiclient"
)

// SettingsAPI is what a group-wide settings change needs.
type SettingsAPI interface {
	GetGroup(ctx context.Context, g apiclient.GroupRef) (*apiclient.Group, *apiclient.Response, error)
	ScopeAPI
	GetSettings(ctx context.Context, p apiclient.ProjectRef) (*apiclient.Settings, *apiclient.Response, error)
	CreateSettings(ctx context.Context, p apiclient.ProjectRef, active, integrated bool) (*apiclient.Settings, *apiclient.Response, error)
	UpdateSettings(ctx context.Context, p apiclient.ProjectRef, active bool, integrated *bool) (*apiclient.Settings, *apiclient.Response, error)
}

// SettingsItem is one project of a group-wide enable or disable.
type SettingsItem struct {
	Project Project
	// Action is what the plan does: create, enable, disable, or "" for
	// nothing (Skip then says why, or the project is already as asked).
	Action string
	Skip   string
	Result string
	Err    error
	// Settings is the server's answer to the change, when it gave one.
	Settings *apiclient.Settings
}

// actionCreateSettings is the action of a project with no settings yet.
const actionCreateSettings = "create integrated settings, enabled"

// Creates reports that the item creates the project's settings (GitLab then
// creates its first client key too).
func (it SettingsItem) Creates() bool { return it.Action == actionCreateSettings }

// SettingsPlan enables or disables error tracking across a group.
type SettingsPlan struct {
	Group  apiclient.Group
	Enable bool
	Items  []SettingsItem
}

// Acting counts the projects the plan changes.
func (p SettingsPlan) Acting() int {
	n := 0
	for _, it := range p.Items {
		if it.Action != "" {
			n++
		}
	}
	return n
}

// Failed counts the projects that failed.
func (p SettingsPlan) Failed() int {
	n := 0
	for _, it := range p.Items {
		if it.Result == ResultFailed {
			n++
		}
	}
	return n
}

// PlanGroupSettings reads each maintained project's settings and decides:
// enabling creates integrated settings where there are none, enables
// disabled ones, and leaves a Sentry-backed project on Sentry; disabling
// disables enabled ones. Nothing is changed.
func PlanGroupSettings(ctx context.Context, api SettingsAPI, ref apiclient.GroupRef, subgroups, enable bool) (SettingsPlan, error) {
	g, _, err := api.GetGroup(ctx, ref)
	if err != nil {
		return SettingsPlan{}, err
	}
	projects, err := GroupProjects(ctx, api, ref, subgroups)
	if err != nil {
		return SettingsPlan{Group: *g}, err
	}
	plan := PlanSettingsFor(ctx, api, projects, enable)
	plan.Group = *g
	return plan, nil
}

// PlanSettingsFor plans a settings change for the given projects (the
// console's marked ones, a group's): the same decision per project.
func PlanSettingsFor(ctx context.Context, api SettingsAPI, projects []apiclient.Project, enable bool) SettingsPlan {
	plan := SettingsPlan{Enable: enable, Items: make([]SettingsItem, len(projects))}
	forEach(len(projects), func(i int) {
		p := projects[i]
		it := SettingsItem{Project: Project{Ref: apiclient.ProjectID(p.ID), ID: p.ID, Path: p.PathWithNamespace}}
		defer func() { plan.Items[i] = it }()
		if skip := SkipReason(p); skip != "" {
			it.Skip, it.Result = skip, ResultSkipped
			return
		}
		s, _, err := api.GetSettings(ctx, it.Project.Ref)
		switch {
		case errors.Is(err, apiclient.ErrSettingsNotFound) && enable:
			it.Action = actionCreateSettings
		case errors.Is(err, apiclient.ErrSettingsNotFound):
			it.Skip, it.Result = "no settings: nothing to disable", ResultUnchanged
		case err != nil:
			it.Skip, it.Result, it.Err = "its settings could not be read", ResultFailed, err
		case s.Active == enable:
			it.Skip, it.Result = "already "+map[bool]string{true: "enabled", false: "disabled"}[enable], ResultUnchanged
		case enable && !s.Integrated && !s.NoIntegrated && s.APIURL != nil && *s.APIURL != "":
			it.Action = "enable (it stays on its Sentry)"
		case enable:
			it.Action = "enable"
		default:
			it.Action = "disable"
		}
	})
	return plan
}

// Run makes the planned changes, a few projects at a time.
func (p SettingsPlan) Run(ctx context.Context, api SettingsAPI, progress func(SettingsItem)) SettingsPlan {
	p.Items = slices.Clone(p.Items) // the caller's plan stays as it was
	done := make(chan SettingsItem)
	go func() {
		forEach(len(p.Items), func(i int) {
			it := p.Items[i]
			if it.Action != "" {
				var err error
				if it.Creates() {
					it.Settings, _, err = api.CreateSettings(ctx, it.Project.Ref, true, true)
				} else {
					it.Settings, _, err = api.UpdateSettings(ctx, it.Project.Ref, p.Enable, nil)
				}
				it.Result, it.Err = ResultChanged, err
				if err != nil {
					it.Result = ResultFailed
				}
				p.Items[i] = it
			}
			done <- it
		})
		close(done)
	}()
	for it := range done {
		if progress != nil {
			progress(it)
		}
	}
	return p
}
