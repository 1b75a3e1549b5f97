package tui

import (
	"context"
	"errors"
	"fmt"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// updateKeyWrite changes a Sentry key: turns it off or on, renames it, or
// sets its rate limit (keystore.Updater), on the key confirmed.
type updateKeyWrite struct {
	proj  projectscope.Project
	store keystore.KeyStore // where the key is, for a failure's words
	keys  keystore.Updater  // the same store's key changes
	key   apiclient.ClientKey
	opts  sentry.UpdateKeyOptions
	// what the change does, in the outcome's words: "disabled",
	// "enabled", "renamed", "rate-limited".
	what string

	got *apiclient.ClientKey
	err error
}

func (w updateKeyWrite) project() projectscope.Project { return w.proj }
func (w updateKeyWrite) failure() error                { return w.err }
func (w updateKeyWrite) pending() string {
	return fmt.Sprintf("key %s of %s was being changed (%s)", keystore.KeyName(w.key), w.proj.Name(), w.what)
}

// conflicts: one change of a key at a time.
func (w updateKeyWrite) conflicts(o write) bool {
	u, ok := o.(updateKeyWrite)
	return ok && sameProject(u.proj, w.proj) && keystore.SameKey(u.key, w.key)
}

func (w updateKeyWrite) run(ctx context.Context, _ API, _ Deps) write {
	w.got, w.err = w.keys.UpdateKey(ctx, keystore.KeyRef(w.key), w.opts)
	w.err = atSentry(w.store, w.err)
	return w
}

func (w updateKeyWrite) changed() changes {
	switch {
	case w.got != nil:
		// The key as Sentry has it now, whether or not it made the change.
		return changes{updated: []apiclient.ClientKey{*w.got}}
	case errors.Is(w.err, sentry.ErrKeyNotFound):
		return changes{removed: []apiclient.ClientKey{w.key}}
	}
	return changes{stale: apiclient.OutcomeUnknown(w.err)}
}

func (w updateKeyWrite) outcome(v voice) outcome {
	name := keystore.KeyName(w.key)
	switch {
	case errors.Is(w.err, sentry.ErrNotApplied) && w.opts.RateLimit != nil:
		return say(w.proj, statusError, fmt.Sprintf("Sentry kept key %s without the rate limit: rate limits are a feature of its plan (projects:rate-limits) that this Sentry has off.", name))
	case errors.Is(w.err, sentry.ErrNotApplied):
		return say(w.proj, statusError, fmt.Sprintf("Sentry did not make the change to key %s: %s", name, v.explain(w.err)))
	case errors.Is(w.err, sentry.ErrKeyNotFound):
		return say(w.proj, statusInfo, fmt.Sprintf("Key %s of %s is gone: it was deleted elsewhere. Nothing was changed.", name, w.proj.Name()))
	case w.err != nil && apiclient.OutcomeUnknown(w.err):
		return say(w.proj, statusError, v.explain(w.err)+" The change may or may not have been made: press "+keyName(v.keys.Refresh)+" to refresh the list.")
	case w.err != nil:
		return say(w.proj, statusError, fmt.Sprintf("Key %s was not %s: %s", name, w.what, v.explain(w.err)))
	}
	k := *w.got
	switch w.what {
	case "disabled":
		return say(w.proj, statusSuccess, fmt.Sprintf("Disabled key %s: its events are refused from now on (%s turns it on again).", keystore.KeyName(k), keyName(v.keys.ToggleActive)))
	case "enabled":
		return say(w.proj, statusSuccess, fmt.Sprintf("Enabled key %s: its events are accepted again.", keystore.KeyName(k)))
	case "renamed":
		return say(w.proj, statusSuccess, fmt.Sprintf("Renamed key %s to %s.", name, keystore.KeyName(k)))
	}
	return say(w.proj, statusSuccess, fmt.Sprintf("Key %s: rate limit %s.", keystore.KeyName(k), keystore.RateLimitText(k.RateLimit)))
}
