package migrate

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/fanout"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/rotation"
)

// The migration's later step: a migrated project's glet_ keys are
// deleted once no variable holds their DSN, every variable read again
// right before each delete.

// planDelete plans the later step: a migrated project's integrated keys
// go once no variable holds their DSN.
func (k MigrateChange) planDelete(ctx context.Context, env *change.PlanEnv, it change.Item, rec ledger.Record, ok bool) change.Item {
	if !ok || rec.Phase != ledger.PhaseMigrated {
		it.Skip, it.Result = "not migrated: nothing to delete", change.ResultSkipped
		if ok && rec.Phase == ledger.PhaseDone {
			it.Skip = "its integrated keys were deleted on " + rec.Ended.Local().Format("2006-01-02")
		}
		return it
	}
	var keys []apiclient.ClientKey
	var vars []apiclient.Variable
	kerr, verr := fanout.Both(func() (err error) {
		keys, _, err = env.API.ListClientKeys(ctx, it.Project.Ref)
		return err
	}, func() (err error) {
		vars, _, err = env.API.ListVariables(ctx, it.Project.Ref)
		return err
	})
	if err := projectscope.FirstErr(kerr, verr); err != nil {
		it.Skip, it.Result, it.Err = "could not be read", change.ResultFailed, err
		return it
	}
	var old []apiclient.ClientKey
	for _, key := range keys {
		if slices.Contains(rec.Before, keystore.KeyRef(key)) {
			old = append(old, key)
		}
	}
	moving, hidden, _ := movingVariables(vars, "", old)
	gv := env.Groups.Ancestors(ctx, env.API, it.Project.Path)
	groupVars, unread := gv.Read, gv.Unread
	for g, gv := range groupVars {
		t, h, _ := movingVariables(gv, g, old)
		moving, hidden = append(moving, t...), append(hidden, h...)
	}
	switch {
	case len(old) == 0:
		it.Skip, it.Result = "its integrated keys are gone already", change.ResultUnchanged
		it.Detail = MigrationResult{migration: &migration{}}
		return it
	case len(unread) > 0:
		// Fail closed: a group variable unseen may still hand out a
		// glet_ DSN, whose clients would get 401 once the key is gone.
		it.Skip, it.Result = "its integrated keys stay: "+UnreadGroupsWords(unread)+"; run this step with a token of the group's Owner, or once they are checked", change.ResultFailed
		return it
	case len(moving) > 0:
		it.Skip, it.Result = moving[0].label()+" still holds an integrated DSN: point it at the Sentry DSN first", change.ResultFailed
		return it
	}
	it.Detail = MigrationResult{migration: &migration{oldKeys: old, rec: rec}}
	names := make([]string, len(old))
	for i, key := range old {
		names[i] = keystore.KeyName(key)
	}
	it.Action = "delete integrated keys " + strings.Join(names, ", ")
	if len(hidden) > 0 {
		it.Action += " (hidden variables cannot be read and may hold their DSN: " + strings.Join(hidden, ", ") + ")"
	}
	return it
}

// runDelete deletes a migrated project's integrated keys and closes its
// migration.
func (k MigrateChange) runDelete(ctx context.Context, env *change.RunEnv, it change.Item) change.Item {
	m := plannedMigration(it)
	store := keystore.GitLabKeys(env.API, it.Project.Ref)
	for _, key := range m.oldKeys {
		// Every variable read again right before the delete: one that
		// took the key's DSN since the plan, or one that cannot be read
		// now, keeps the key.
		if why, err := stillHeld(ctx, env.API, it.Project, key); why != "" {
			it.Err, it.Result = err, change.ResultFailed
			it.Words = fmt.Sprintf("Key %s was not deleted: %s.", keystore.KeyName(key), why)
			return it
		}
		if _, _, err := store.Delete(ctx, key); err != nil {
			it.Err, it.Result = err, change.ResultFailed
			it.Words = env.Explain(err)
			if apiclient.OutcomeUnknown(err) {
				it.Result = change.ResultUnderWay
				it.Words += fmt.Sprintf(" Key %s may or may not have been deleted: %s.", keystore.KeyName(key), env.Checks(it.Project).Keys)
			}
			return it
		}
		// Rotations the key ends (it was replaced, or made) end with it.
		k.Ledger.KeyDeleted(it.Project.ID, key)
	}
	rec := m.rec
	rec.Phase, rec.Ended, rec.Note = ledger.PhaseDone, k.Ledger.Stamp(), "integrated keys deleted"
	_ = k.Ledger.Put(rec, false)
	it.Result, it.Words = change.ResultChanged, fmt.Sprintf("Deleted its integrated %s: the migration is finished.", map[bool]string{true: "key", false: "keys"}[len(m.oldKeys) == 1])
	return it
}

// stillHeld reads the project's and its groups' variables again and says
// why key must stay: a variable holds its DSN, or one could not be read.
func stillHeld(ctx context.Context, api change.ChangeAPI, p projectscope.Project, key apiclient.ClientKey) (string, error) {
	h, err := rotation.ReadHolders(ctx, api, p, key.DSN, nil)
	if err != nil {
		return "the project's CI/CD variables could not be read again right before it", err
	}
	if len(h.Uses) > 0 {
		return h.Uses[0].Label() + " holds its DSN again: point it at the Sentry DSN, then run this step again", nil
	}
	if unread := h.UnreadGroups(); len(unread) > 0 {
		return UnreadGroupsWords(h.Unread) + ": run this step again once they can be read", h.Unread[unread[0]]
	}
	return "", nil
}
