package migrate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/apiclient/sentry"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/testevent"
	"github.com/errtrack/errtrack/internal/wording"
)

// migrationKeyName names the key a migration makes, when the Sentry
// project has no active key to take.
const migrationKeyName = "Moved from GitLab"

// Run carries one project across, each step recorded; a step that failed
// stops the project there, and the next run goes on from it.
func (k MigrateChange) Run(ctx context.Context, env *change.RunEnv, it change.Item) change.Item {
	if k.DeleteOldKeys {
		return k.runDelete(ctx, env, it)
	}
	res := migrationResultOf(it)
	m := *res.migration
	l := k.Ledger
	// One run at a project at a time, across processes: two could each
	// find no active key in the target and make one.
	if l != nil {
		release, err := l.Store().Claim(ledger.ProjectClaim(l.Host(), it.Project.ID))
		switch {
		case errors.Is(err, ledger.ErrBusy):
			err = &rotation.BusyError{Project: it.Project}
			it.Result, it.Err, it.Words = change.ResultFailed, err, wording.Capitalize(err.Error())+": nothing was changed here; run again once it ended."
			return it
		case err != nil:
			it.Result, it.Err, it.Words = change.ResultFailed, err, env.Explain(&rotation.LedgerError{Before: "migrating " + it.Project.Name(), Err: err})
			return it
		}
		defer release()
		// What another run did since the plan goes on from where it is.
		_ = l.Store().Refresh()
		if rec, ok := l.MigrationOf(it.Project.ID); ok && rec.ID != m.rec.ID && rec.IsOpen() {
			m.rec = rec
		}
	}
	rec := m.rec
	if rec.ID == "" {
		rec = l.NewRecord(ledger.KindMigration, "m-")
		rec.ProjectID, rec.ProjectPath, rec.Backend = it.Project.ID, it.Project.Path, keystore.BackendSentry
		rec.Target, rec.Before = ledgerTarget(m.target), keyRefs(m.oldKeys)
	}
	put := func(phase string, durable bool) error {
		rec.Phase = phase
		if err := l.Put(rec, durable); err != nil {
			return &rotation.LedgerError{Before: "going on with " + it.Project.Name(), Err: err}
		}
		return nil
	}
	c := env.Checks(it.Project)
	stop := func(err error, unknown bool, words string) change.Item {
		it.Err, it.Words, it.Result = err, words, change.ResultFailed
		if unknown || ctx.Err() != nil {
			it.Result = change.ResultUnderWay
		}
		res.migration = &m
		it.Detail = res
		return it
	}
	// The Sentry project: taken, or made (a lost answer is checked on
	// the next run's plan, which takes it if it is there).
	if !m.exists {
		if err := put(ledger.PhaseProjectCreating, true); err != nil {
			return stop(err, false, env.Explain(err))
		}
		_, err := k.Sentry.CreateProject(ctx, m.target.Org, k.Team, sentry.CreateProjectOptions{Name: sentryName(it.Project, m.target.Slug), Slug: m.target.Slug})
		switch {
		case errors.Is(err, sentry.ErrConflict):
			// Made by a run whose answer was lost, or there already.
		case err != nil:
			unknown := sentry.OutcomeUnknown(err)
			words := env.Explain(err) + " The Sentry project " + TargetName(m.target) + " was not created."
			if unknown {
				words = env.Explain(err) + " The Sentry project " + TargetName(m.target) + " may or may not have been created: run again, it is taken if it is there."
			}
			return stop(err, unknown, words)
		}
		m.exists = true
	}
	// Its key: an active one taken (a new project's "Default"), else one
	// made: a key is made only where none is active, so never twice.
	key, err := k.takeKey(ctx, m.target, rec)
	if err != nil {
		unknown := sentry.OutcomeUnknown(err)
		words := env.Explain(err) + " No key of " + TargetName(m.target) + " was taken."
		if unknown {
			words = env.Explain(err) + " A key may or may not have been made in " + TargetName(m.target) + ": run again, it takes the key if it is there."
		}
		return stop(err, unknown, words)
	}
	m.key, res.Key = key, *key // its test event, refused or not, names it
	rec.NewPublic = key.PublicKey
	if err := put(ledger.PhaseCreated, false); err != nil {
		return stop(err, false, env.Explain(err))
	}
	// The variables, each read again right before it is written.
	for i := range m.targets {
		t := &m.targets[i]
		if t.done {
			continue
		}
		if err := k.point(ctx, env.API, it.Project.Ref, t, key.DSN); err != nil {
			rec.Variables = m.ledgerVariables()
			_ = put(ledger.PhaseCreated, false)
			var moved *rotation.VariableMovedError
			ve := &rotation.VariableError{}
			unknown := errors.As(err, &ve) && ve.Target.Unknown
			words := env.Explain(err)
			switch {
			case errors.As(err, &moved):
				words = wording.Capitalize(moved.Error()) + ": " + c.Variables + ", then run again."
			case unknown:
				words = wording.Capitalize(ve.Step()) + " may or may not have happened: " + c.Variables + "."
			}
			return stop(err, unknown, words)
		}
	}
	rec.Variables = m.ledgerVariables()
	if err := put(ledger.PhaseVariables, false); err != nil {
		return stop(err, false, env.Explain(err))
	}
	// A test event through the Sentry DSN must be accepted.
	check, err := testevent.Send(ctx, env.API, it.Project, *key)
	if check != nil {
		rec.TestEvent = &ledger.TestEvent{Accepted: check.Accepted, Status: check.StatusCode}
	}
	if err != nil {
		_ = put(ledger.PhaseVariables, false)
		return stop(err, false, env.Explain(err)+" GitLab's integrated tracking was left on.")
	}
	res.Check = check
	// GitLab's integrated tracking off: the Sentry settings of GitLab
	// itself are set only in its web UI. Not while a hidden variable may
	// hold a glet_ DSN: its clients would stop reporting unseen.
	if !k.KeepIntegrated && m.holdsOn() == "" {
		if _, _, err := env.API.UpdateSettings(ctx, it.Project.Ref, false, nil); err != nil {
			_ = put(ledger.PhaseVariables, false)
			unknown := apiclient.OutcomeUnknown(err)
			words := env.Explain(err) + " The variables hold the Sentry DSN; integrated tracking is still on: run again to switch it off."
			if unknown {
				words = env.Explain(err) + " Integrated tracking may or may not be off: " + c.Settings + ", then run again."
			}
			return stop(err, unknown, words)
		}
		rec.SwitchedOff = true
	}
	if err := put(ledger.PhaseMigrated, true); err != nil {
		return stop(err, false, env.Explain(err))
	}
	res.migration = &m
	it.Result, it.Detail = change.ResultChanged, res
	it.Words = k.doneWords(it.Project, m, rec, c)
	return it
}

// takeKey takes the target's active key (one named like the key a
// migration makes first, then "Default", then any), or makes one.
func (k MigrateChange) takeKey(ctx context.Context, t sentry.Project, rec ledger.Record) (*apiclient.ClientKey, error) {
	keys, err := k.Sentry.ListKeys(ctx, t, sentry.ActiveKeys)
	if err != nil {
		return nil, err
	}
	var pick *sentry.Key
	for i, key := range keys {
		switch {
		case rec.NewPublic != "" && key.ID == rec.NewPublic:
			pick = &keys[i]
		case pick == nil && (key.Name == migrationKeyName || key.Name == "Default"):
			pick = &keys[i]
		}
	}
	if pick == nil && len(keys) > 0 {
		pick = &keys[0]
	}
	if pick == nil {
		if pick, err = k.Sentry.CreateKey(ctx, t, sentry.CreateKeyOptions{Name: migrationKeyName}); err != nil {
			return nil, err
		}
	}
	out := keystore.FromSentry(*pick)
	return &out, nil
}

// point sets a variable to the Sentry DSN, read again first: one changed
// since the plan is left alone.
func (k MigrateChange) point(ctx context.Context, api change.ChangeAPI, ref apiclient.ProjectRef, t *movingVariable, newDSN string) error {
	var now rotation.Current
	var err error
	gw, groupsOK := api.(GroupVariableWriter)
	if t.group != "" {
		if !groupsOK {
			return fmt.Errorf("group variables cannot be changed here")
		}
		var v *apiclient.Variable
		v, _, err = gw.GetGroupVariable(ctx, apiclient.GroupRef{Path: t.group}, t.Key, t.Scope)
		if err == nil {
			now = rotation.Current{Exists: true, Value: v.Value}
		} else if errors.Is(err, apiclient.ErrVariableNotFound) {
			now, err = rotation.Current{}, nil
		}
	} else {
		now, err = rotation.Reread(ctx, api, ref, t.VariableTarget)
	}
	switch {
	case err != nil:
		return &rotation.VariableError{Target: t.VariableTarget, Err: err}
	case now.Holds(newDSN):
		t.done, t.Done = true, true
		return nil
	case now.MovedFrom(t.VariableTarget):
		t.Moved = true
		return &rotation.VariableMovedError{Target: t.VariableTarget}
	}
	value := t.ValueFor(t.old, newDSN)
	if t.group != "" {
		_, _, err = gw.UpdateGroupVariableValue(ctx, apiclient.GroupRef{Path: t.group}, t.Key, t.Scope, value)
	} else {
		_, _, err = api.UpdateVariableValue(ctx, ref, t.Key, t.Scope, value)
	}
	if err != nil {
		t.Unknown = apiclient.OutcomeUnknown(err)
		t.Failed = !t.Unknown
		return &rotation.VariableError{Target: t.VariableTarget, Err: err}
	}
	t.done, t.Done = true, true
	return nil
}

// ledgerVariables are the variables the migration pointed at the Sentry
// DSN: this run's, and those an earlier run of it moved (they hold no
// glet_ DSN any more, so this run's plan does not find them).
func (m migration) ledgerVariables() []ledger.Variable {
	out := make([]ledger.Variable, 0, len(m.rec.Variables)+len(m.targets))
	for _, t := range m.targets {
		out = append(out, ledger.Variable{Key: t.Key, Scope: rotation.ScopeOf(t.Scope), Group: t.group, Result: t.Result()})
	}
	for _, v := range m.rec.Variables {
		if !slices.ContainsFunc(out, func(o ledger.Variable) bool { return o.Key == v.Key && o.Scope == v.Scope && o.Group == v.Group }) {
			out = append(out, v)
		}
	}
	return out
}

// doneWords say how a project's migration ended.
func (k MigrateChange) doneWords(p projectscope.Project, m migration, rec ledger.Record, c rotation.Checks) string {
	var held []string
	for _, t := range m.targets {
		held = append(held, t.label())
	}
	s := fmt.Sprintf("Migrated to Sentry project %s, key %s.", TargetName(m.target), keystore.KeyName(*m.key))
	switch len(held) {
	case 0:
	case 1:
		s += " " + held[0] + " holds its DSN."
	default:
		s += " " + strings.Join(held, ", ") + " hold its DSN."
	}
	s += " The test event was " + testevent.AcceptedWords + "."
	switch {
	case rec.SwitchedOff:
		s += " GitLab's integrated tracking is off."
	case m.holdsOn() != "":
		off := "switch it off"
		if c.SwitchOff != "" {
			off += " (" + c.SwitchOff + ")"
		}
		s += " GitLab's integrated tracking stays on: " + m.holdsOn() + "; " + off + " once they are checked."
	}
	return s + fmt.Sprintf(" The integrated keys %s stay until their clients moved, then go with the later step (%s).", strings.Join(rec.Before, ", "), c.OldKeysStep)
}

// migratedWords say where a migrated project stands, on a later run.
func (k MigrateChange) migratedWords(ctx context.Context, env *change.PlanEnv, p projectscope.Project, rec ledger.Record) string {
	s := "migrated to " + rec.Target + " on " + rec.Started.Local().Format("2006-01-02")
	if rec.Phase == ledger.PhaseMigrated {
		s += "; its integrated keys go with the migration's later step, once their clients moved"
	}
	if st, _, err := env.API.GetSettings(ctx, p.Ref); err == nil && !keystore.SentryBacked(st) {
		s += "; GitLab's own Sentry settings are not set yet: set them in its web UI, " + projectscope.SettingsPage(k.Ledger.Host(), p)
	}
	return s
}
