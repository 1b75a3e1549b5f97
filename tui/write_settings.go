package tui

import (
	"context"
	"errors"
	"fmt"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// settingsWrite creates or changes a project's error tracking settings.
type settingsWrite struct {
	proj       projectscope.Project
	create     bool // PUT: the project has none yet
	active     bool
	integrated *bool
	what       string // "enabled", "disabled", ...
	known      []apiclient.ClientKey
	keysKnown  bool // known are GitLab's keys as listed on screen

	settings *apiclient.Settings
	keys     []apiclient.ClientKey // read back when integrated tracking is on
	created  *apiclient.ClientKey  // the first key GitLab created with it
	err      error
}

func (w settingsWrite) project() projectscope.Project { return w.proj }
func (w settingsWrite) failure() error                { return w.err }
func (w settingsWrite) pending() string {
	if w.create {
		return "the error tracking settings of " + w.proj.Name() + " were being created"
	}
	return "the error tracking settings of " + w.proj.Name() + " were being changed"
}

func (w settingsWrite) conflicts(o write) bool {
	s, ok := o.(settingsWrite)
	return ok && sameProject(s.proj, w.proj)
}

func (w settingsWrite) run(ctx context.Context, api API, _ Deps) write {
	// The command's write, with its rule for naming the first key.
	var ch change.SettingsWritten
	ch, w.err = change.WriteSettings(ctx, api, w.proj.Ref, change.SettingsRequest{Create: w.create, Active: w.active, Integrated: w.integrated,
		Known: w.known, KeysKnown: w.keysKnown && !w.create})
	if w.err == nil {
		w.settings, w.created = ch.Settings, ch.CreatedKey
		if w.settings.Active && w.settings.Integrated {
			w.keys = ch.Keys // GitLab's keys, read back: integrated tracking is on
		}
	}
	return w
}

func (w settingsWrite) changed() changes {
	if w.err != nil {
		return changes{stale: apiclient.OutcomeUnknown(w.err), integratedRefused: errors.Is(w.err, apiclient.ErrIntegratedUnavailable)}
	}
	keptOff := w.integrated != nil && *w.integrated && !w.settings.Integrated
	// Keys not read back (a failed read) may have gained the first key.
	stale := w.settings.Active && w.settings.Integrated && w.keys == nil
	return changes{settings: w.settings, keys: w.keys, stale: stale, integratedRefused: keptOff}
}

func (w settingsWrite) outcome(v voice) outcome {
	name := w.proj.Name()
	switch {
	case w.err != nil && apiclient.OutcomeUnknown(w.err):
		return say(w.proj, statusError, v.explain(w.err)+" The change may or may not have been applied: press "+keyName(v.keys.Refresh)+" to refresh.")
	case w.err != nil:
		return say(w.proj, statusError, v.explain(w.err))
	}
	text := fmt.Sprintf("Error tracking settings %s for %s.", w.what, name)
	if k := w.created; k != nil {
		text += fmt.Sprintf(" GitLab created the first client key, %d: its DSN is on the Client keys tab.", k.ID)
	}
	if w.integrated != nil && *w.integrated && !w.settings.Integrated {
		text = "GitLab kept integrated error tracking off for " + name + ". " + explain.IntegratedUnavailable
	}
	return say(w.proj, statusSuccess, text)
}
