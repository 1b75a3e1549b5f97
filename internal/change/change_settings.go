package change

import (
	"context"
	"errors"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/wording"
)

// SettingsChange enables or disables error tracking in each project:
// enabling creates integrated settings where there are none (GitLab then
// makes the first client key), enables disabled ones, and leaves a
// Sentry-backed project on its Sentry; disabling disables enabled ones.
type SettingsChange struct{ Enable bool }

// Words name the change.
func (k SettingsChange) Words() ChangeWords {
	if k.Enable {
		return ChangeWords{Doing: "Enabling error tracking", Ask: "Enable error tracking", Progress: "Enabling", Plan: "to enable"}
	}
	return ChangeWords{Doing: "Disabling error tracking", Ask: "Disable error tracking", Progress: "Disabling", Plan: "to disable"}
}

// actionCreateSettings is the action of a project with no settings yet.
const actionCreateSettings = "create integrated settings, enabled"

// actionStaysOnSentry enables a Sentry-backed project's error tracking.
const actionStaysOnSentry = "enable (it stays on its Sentry)"

func (k SettingsChange) Plan(ctx context.Context, env *PlanEnv, p apiclient.Project) Item {
	it := Item{Project: ProjectOf(p), Detail: SettingsResult{}}
	s, _, err := env.API.GetSettings(ctx, it.Project.Ref)
	switch {
	case errors.Is(err, apiclient.ErrSettingsNotFound) && k.Enable:
		it.Action, it.Detail = actionCreateSettings, SettingsResult{Creates: true}
	case errors.Is(err, apiclient.ErrSettingsNotFound):
		it.Skip, it.Result = "no settings: nothing to disable", ResultUnchanged
	case err != nil:
		it.Skip, it.Result, it.Err = "its settings could not be read", ResultFailed, err
	case s.Active == k.Enable:
		it.Skip, it.Result = "already "+map[bool]string{true: "enabled", false: "disabled"}[k.Enable], ResultUnchanged
	case k.Enable && !s.Integrated && !s.NoIntegrated && s.APIURL != nil && *s.APIURL != "":
		it.Action = actionStaysOnSentry
	case k.Enable:
		it.Action = "enable"
	default:
		it.Action = "disable"
	}
	return it
}

// settingsDone words an action done.
func settingsDone(action string) string {
	switch action {
	case actionCreateSettings:
		return "Created integrated settings, enabled."
	case actionStaysOnSentry:
		return "Enabled (it stays on its Sentry)."
	case "disable":
		return "Disabled."
	}
	return "Enabled."
}

func (k SettingsChange) Run(ctx context.Context, env *RunEnv, it Item) Item {
	var err error
	res, _ := it.Detail.(SettingsResult)
	if res.Creates {
		res.Settings, _, err = env.API.CreateSettings(ctx, it.Project.Ref, true, true)
	} else {
		res.Settings, _, err = env.API.UpdateSettings(ctx, it.Project.Ref, k.Enable, nil)
	}
	it.Detail = res
	it.Result, it.Err, it.Words = ResultChanged, err, settingsDone(it.Action)
	if err != nil {
		it.Result, it.Words = ResultFailed, env.Explain(err)
		if apiclient.OutcomeUnknown(err) {
			it.Words = wording.Sentence(it.Words) + " The change may or may not have been made: " + env.Checks(it.Project).Settings + "."
		}
	}
	return it
}

// SettingsResult is a settings change's: whether it creates them, and the
// server's answer (nil until answered).
type SettingsResult struct {
	Creates  bool
	Settings *apiclient.Settings
}

func (SettingsResult) KindResult() {}
