package tui

import (
	"context"
	"errors"
	"fmt"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/testevent"
)

// createKeyWrite creates a client key (n): GitLab's, or, with a store, a
// Sentry's with its name.
type createKeyWrite struct {
	proj  projectscope.Project
	store keystore.KeyStore // nil: GitLab's keys
	name  string
	key   *apiclient.ClientKey
	err   error
}

func (w createKeyWrite) project() projectscope.Project { return w.proj }
func (w createKeyWrite) failure() error                { return w.err }
func (w createKeyWrite) pending() string {
	return "a client key was being created in " + w.proj.Name()
}

func (w createKeyWrite) conflicts(o write) bool {
	c, ok := o.(createKeyWrite)
	return ok && sameProject(c.proj, w.proj)
}

func (w createKeyWrite) run(ctx context.Context, api API, d Deps) write {
	if w.store != nil {
		w.key, w.err = w.store.Create(ctx, w.name)
		w.err = atSentry(w.store, w.err)
		if w.key == nil && w.err == nil {
			w.err = errors.New("the Sentry answered the create without the key")
		}
		return w
	}
	w.key, _, w.err = api.CreateClientKey(ctx, w.proj.Ref)
	if w.err == nil {
		d.keyCreated(w.proj, w.key.ID)
	}
	return w
}

func (w createKeyWrite) changed() changes {
	if w.err != nil {
		return changes{stale: apiclient.OutcomeUnknown(w.err)}
	}
	return changes{added: []apiclient.ClientKey{*w.key}}
}

func (w createKeyWrite) outcome(v voice) outcome {
	if w.err != nil {
		if words, ok := rotation.CreateOutcomeUnknown(w.err, "press "+keyName(v.keys.Refresh)+" to refresh the list"); ok {
			return say(w.proj, statusError, v.explain(w.err)+" "+words)
		}
		return say(w.proj, statusError, v.explain(w.err))
	}
	if w.store != nil {
		return say(w.proj, statusSuccess, fmt.Sprintf("Created key %s in the %s; %s copies its DSN.", keystore.KeyName(*w.key), w.store.Where(), keyName(v.keys.Copy)))
	}
	return say(w.proj, statusSuccess, fmt.Sprintf("Created client key %d in %s.", w.key.ID, w.proj.Name()))
}

// deleteKeyWrite deletes a client key (d) in two runs: the first looks the
// key up with the CI/CD variables that hold its DSN and asks, naming them;
// the second, started by the answer, deletes the key the user confirmed.
type deleteKeyWrite struct {
	proj  projectscope.Project
	key   apiclient.ClientKey
	store keystore.KeyStore // nil: GitLab's keys
	// confirmed: the user answered yes to the question naming key.
	confirmed bool
	plan      rotation.Deletion
	err       error
}

func (w deleteKeyWrite) project() projectscope.Project { return w.proj }
func (w deleteKeyWrite) failure() error                { return w.err }

// reading: the key is still being looked up; nothing was deleted.
func (w deleteKeyWrite) reading() bool { return !w.confirmed }

func (w deleteKeyWrite) pending() string {
	if !w.confirmed {
		return fmt.Sprintf("client key %s of %s was being looked up to delete it", keystore.KeyName(w.key), w.proj.Name())
	}
	return fmt.Sprintf("client key %s of %s was being deleted", keystore.KeyName(w.key), w.proj.Name())
}

func (w deleteKeyWrite) conflicts(o write) bool {
	d, ok := o.(deleteKeyWrite)
	return ok && sameProject(d.proj, w.proj) && keystore.SameKey(d.key, w.key)
}

func (w deleteKeyWrite) run(ctx context.Context, api API, d Deps) write {
	if !w.confirmed {
		// With its path known, the groups' variables are read in the same
		// round trip as the rest.
		ref := w.proj.Ref
		if ref.Path == "" {
			ref.Path = w.proj.Path
		}
		w.plan, w.err = rotation.PlanDeletionIn(ctx, api, ref, w.store, keystore.KeyRef(w.key), false)
		w.err = w.atStore(w.err)
		return w
	}
	w.plan, w.err = w.plan.Run(ctx, api, d.Rotations)
	w.err = w.atStore(w.err)
	return w
}

// atStore marks a Sentry's failure as its own: the project's GitLab
// variables are read with it, and their failures stay GitLab's.
func (w deleteKeyWrite) atStore(err error) error {
	if w.store == nil || err == nil || (!explainsSentry(err) && !w.confirmed) {
		return err
	}
	return atSentry(w.store, err)
}

func (w deleteKeyWrite) changed() changes {
	var ns *rotation.NoSuchKeyError
	switch {
	case !w.confirmed && errors.As(w.err, &ns):
		return changes{removed: []apiclient.ClientKey{w.key}}
	case !w.confirmed:
		return changes{}
	case w.plan.Deleted:
		return changes{removed: []apiclient.ClientKey{w.key}, stale: w.plan.AlreadyGone}
	}
	return changes{stale: w.plan.Unknown}
}

func (w deleteKeyWrite) outcome(v voice) outcome {
	name, key := w.proj.Name(), keystore.KeyName(w.key)
	var ns *rotation.NoSuchKeyError
	switch {
	case !w.confirmed && errors.As(w.err, &ns):
		return say(w.proj, statusInfo, fmt.Sprintf("Client key %s of %s is already gone: it was deleted elsewhere.", key, name))
	case !w.confirmed && w.err != nil:
		return say(w.proj, statusError, "Client key "+key+" could not be looked up, so nothing was deleted: "+v.explain(w.err))
	case !w.confirmed:
		// Asked only where the user still looks at the key: they may have
		// moved on while it was looked up.
		return outcome{askAtKeyMsg{project: w.proj, key: w.key, d: w.question(),
			moved: fmt.Sprintf("The question to delete client key %s was not shown: you moved on before it was ready. Press %s on the key again to delete it.", key, keyName(v.keys.Delete))}}
	case w.plan.Unknown:
		return say(w.proj, statusError, v.explain(w.err)+" "+w.plan.Outcome("press "+keyName(v.keys.Refresh)+" to refresh the list"))
	case w.err != nil:
		return say(w.proj, statusError, v.explain(w.err))
	case w.plan.AlreadyGone:
		return say(w.proj, statusInfo, w.plan.Outcome(""))
	}
	return say(w.proj, statusSuccess, w.plan.Outcome(""))
}

// question names the key as the server listed it, and what reads its DSN.
func (w deleteKeyWrite) question() dialog {
	k := w.plan.Key
	body := []string{"Public key " + clean(k.PublicKey), "Clients that send errors with its DSN will stop reporting. This cannot be undone."}
	if w.store != nil {
		body[0] = "In the " + clean(w.store.Where()) + ". Public key " + clean(k.PublicKey) + "."
		if !k.Active {
			body[1] = "It is disabled: its events are refused already. Deleting it cannot be undone."
		}
	}
	if warn := w.plan.Warning(); warn != "" {
		body = append(body, "", clean(warn))
	}
	yes := w
	yes.key, yes.confirmed = k, true
	return confirmDialog(fmt.Sprintf("Delete client key %s of %s?", clean(keystore.KeyName(k)), clean(w.proj.Name())), body, "Delete", startWriteMsg{yes})
}

// verifyKeyWrite sends a test event with one key's DSN (v).
type verifyKeyWrite struct {
	proj  projectscope.Project
	key   apiclient.ClientKey
	check *apiclient.DSNCheck
	err   error
}

func (w verifyKeyWrite) project() projectscope.Project { return w.proj }
func (w verifyKeyWrite) failure() error                { return w.err }
func (w verifyKeyWrite) changed() changes              { return changes{} }
func (w verifyKeyWrite) pending() string {
	return fmt.Sprintf("a test event was being sent with the DSN of key %s of %s", keystore.KeyName(w.key), w.proj.Name())
}

func (w verifyKeyWrite) conflicts(o write) bool {
	v, ok := o.(verifyKeyWrite)
	return ok && sameProject(v.proj, w.proj) && keystore.SameKey(v.key, w.key)
}

func (w verifyKeyWrite) run(ctx context.Context, api API, _ Deps) write {
	w.check, w.err = testevent.Send(ctx, api, w.proj, w.key)
	return w
}

func (w verifyKeyWrite) outcome(v voice) outcome {
	var refused *testevent.RefusedError
	switch {
	case errors.As(w.err, &refused):
		return say(w.proj, statusError, fmt.Sprintf("Key %s of %s: %s. %s", keystore.KeyName(w.key), w.proj.Name(), refused, refused.Advice()))
	case w.err != nil:
		return say(w.proj, statusError, "The test event could not be sent: "+v.explain(w.err))
	}
	return say(w.proj, statusSuccess, fmt.Sprintf("Key %s of %s: the test event was %s (HTTP %d).", keystore.KeyName(w.key), w.proj.Name(), testevent.AcceptedWords, w.check.StatusCode))
}
