package tui

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// settingsWrite creates or changes a project's error tracking settings.
type settingsWrite struct {
	proj       projectscope.Project
	create     bool // PUT: the project has none yet
	active     bool
	integrated *bool
	what       string  // "enabled", "disabled", ...
	keysBefore []int64 // the keys the screen knew, to name one the server creates

	settings *apiclient.Settings
	keys     []apiclient.ClientKey // read back when integrated tracking is on
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
	if w.create {
		w.settings, _, w.err = api.CreateSettings(ctx, w.proj.Ref, w.active, *w.integrated)
	} else {
		w.settings, _, w.err = api.UpdateSettings(ctx, w.proj.Ref, w.active, w.integrated)
	}
	// Turning integrated tracking on creates the first key: read the keys
	// back so the console can name it.
	if w.err == nil && w.settings.Active && w.settings.Integrated {
		w.keys, _, _ = api.ListClientKeys(ctx, w.proj.Ref)
	}
	return w
}

func (w settingsWrite) changed() changes {
	if w.err != nil {
		return changes{stale: apiclient.OutcomeUnknown(w.err), integratedRefused: errors.Is(w.err, apiclient.ErrIntegratedUnavailable)}
	}
	keptOff := w.integrated != nil && *w.integrated && !w.settings.Integrated
	return changes{settings: w.settings, keys: w.keys, integratedRefused: keptOff}
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
	for _, k := range w.keys {
		if !slices.Contains(w.keysBefore, k.ID) {
			text += fmt.Sprintf(" GitLab created the first client key, %d: its DSN is on the Client keys tab.", k.ID)
			break
		}
	}
	if w.integrated != nil && *w.integrated && !w.settings.Integrated {
		text = "GitLab kept integrated error tracking off for " + name + ". " + explain.IntegratedUnavailable
	}
	return say(w.proj, statusSuccess, text)
}
