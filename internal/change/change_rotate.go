package change

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/fanout"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/rotation"
)

// RotateChange rotates, in each project whose CI/CD variable Variable (in
// Scope, when given) holds the DSN of one of its keys, that key, with the
// single rotation's steps and guards. The plan reads each project's keys
// and variables and each group's variables once; the run reads nothing
// again but the new key's listing and each variable right before it is
// written. Stops the plan can see (other variables holding the old DSN
// with nobody saying what they get, a group variable holding it) are shown
// in the plan, and no key is made there.
type RotateChange struct {
	Variable, Scope string
	// ScopeHow says how the user names one scope of a variable several
	// scopes have, in the front end's words ("choose one with
	// --environment-scope").
	ScopeHow string
	// UpdateVariables and KeepVariables answer, for every project, what
	// other variables holding the old DSN get; Verify sends a test event
	// with each new DSN.
	UpdateVariables, KeepVariables, Verify bool
	// DeleteWithUnreadGroups rotates where some ancestor groups' variables
	// could not be read; otherwise those projects are left alone.
	DeleteWithUnreadGroups bool
	// Ledger records the rotations and the group rotation they are part
	// of; nil keeps nothing.
	Ledger *rotation.Rotations
	// Resolve reaches a Sentry-backed project's Sentry: the key its
	// variable holds is rotated there.
	Resolve keystore.SentryResolver
}

// inSentry looks for the held key in a Sentry-backed project's Sentry,
// when the variable holds no GitLab key's DSN: its settings are read only
// then, so an integrated project's plan costs nothing more.
func (h held) inSentry(ctx context.Context, api rotation.RotationAPI, ref apiclient.ProjectRef, variable, scope string, resolve keystore.SentryResolver) held {
	if h.err != nil || !h.foreign || resolve == nil {
		return h
	}
	s, _, err := api.GetSettings(ctx, ref)
	if err != nil || !keystore.SentryBacked(s) {
		return h
	}
	store, err := resolve(ctx, *s.APIURL)
	if err == nil {
		var keys []apiclient.ClientKey
		if keys, err = store.All(ctx); err == nil {
			h.keys, h.store = keys, store
			for _, v := range h.vars {
				if v.Key != variable || (scope != "" && v.EnvironmentScope != scope) {
					continue
				}
				for _, key := range keys {
					if rotation.HoldsDSN(v, key.DSN) {
						h.key, h.skip = key, ""
						return h
					}
				}
			}
			return h
		}
	}
	h.err = err
	return h
}

// Words name the change.
func (k RotateChange) Words() ChangeWords {
	return ChangeWords{Doing: "Rotating the keys " + k.Variable + " holds", Ask: "Rotate the keys " + k.Variable + " holds", Progress: "Rotating", Plan: "to rotate",
		Resume: "A run started again, from the console or the commands, goes on with the keys under way and leaves the projects rotated alone until a run ends with none failed: no project gets a second new key."}
}

// held is what a project's keys and variables say of the key a variable
// holds; skip says why there is none to act on.
type held struct {
	key  apiclient.ClientKey
	keys []apiclient.ClientKey
	resp *apiclient.Response
	vars []apiclient.Variable
	skip string
	// foreign: the variable holds a DSN that is none of the GitLab keys'
	// (it may be a Sentry's).
	foreign bool
	err     error
	// store holds the keys when they are a Sentry's (nil: GitLab's).
	store keystore.KeyStore
}

// readHeld reads the project's keys and variables at once and finds the
// key whose DSN the variable (in scope, when given) holds.
func readHeld(ctx context.Context, api rotation.RotationAPI, ref apiclient.ProjectRef, variable, scope, how string) held {
	var h held
	kerr, verr := fanout.Both(func() (err error) {
		h.keys, h.resp, err = api.ListClientKeys(ctx, ref)
		return err
	}, func() (err error) {
		h.vars, _, err = api.ListVariables(ctx, ref)
		return err
	})
	if h.err = errors.Join(kerr, verr); h.err != nil {
		return h
	}
	var named []apiclient.Variable
	for _, v := range h.vars {
		if v.Key == variable && (scope == "" || v.EnvironmentScope == scope) {
			named = append(named, v)
		}
	}
	switch {
	case len(named) == 0:
		h.skip = "no CI/CD variable " + variable
		if scope != "" {
			h.skip += " in environment scope " + scope
		}
		return h
	case len(named) > 1:
		h.skip = fmt.Sprintf("%d variables named %s in different environment scopes", len(named), variable)
		if how != "" {
			h.skip += ": " + how
		}
		return h
	case named[0].Value == nil:
		h.skip = variable + " is hidden: its value cannot be read"
		return h
	}
	for _, k := range h.keys {
		if rotation.HoldsDSN(named[0], k.DSN) {
			h.key = k
			return h
		}
	}
	h.skip, h.foreign = variable+" does not hold the DSN of one of the project's keys", true
	return h
}

func (k RotateChange) Plan(ctx context.Context, env *PlanEnv, p apiclient.Project) Item {
	it := Item{Project: ProjectOf(p)}
	if rec, ok := env.campaignDone(p.ID); ok {
		it.Skip, it.Result = "rotated by an earlier run of this group rotation ("+finishedWords(rec)+"): left as it is until the rotation is finished or restarted", ResultUnchanged
		it.Detail = RotationResult{Old: rotation.OldKeyOf(rec), New: rotation.NewKeyOf(rec), DoneBefore: true}
		return it
	}
	h := readHeld(ctx, env.API, it.Project.Ref, k.Variable, k.Scope, k.ScopeHow).inSentry(ctx, env.API, it.Project.Ref, k.Variable, k.Scope, k.Resolve)
	switch {
	case h.err != nil:
		it.Skip, it.Result, it.Err = "could not be read", ResultFailed, h.err
		return it
	case h.skip != "":
		it.Skip, it.Result = h.skip, ResultSkipped
		return it
	}
	old := h.key
	// The variable may hold the key an unfinished rotation made already:
	// that rotation goes on, from its old key.
	if rec, ok := env.ledger.MadeKey(p.ID, old); ok {
		o, found := rotation.FindKeyRef(h.keys, keystore.KeyRef(rotation.OldKeyOf(rec)))
		if !found {
			env.ledger.SettleOldKey(p.ID, rotation.OldKeyOf(rec), "", fmt.Sprintf("key %s was gone when a group rotation planned again", keystore.KeyName(rotation.OldKeyOf(rec))))
			it.Skip, it.Result = fmt.Sprintf("already rotated: key %s replaced key %s, which is gone", keystore.KeyName(rotation.NewKeyOf(rec)), keystore.KeyName(rotation.OldKeyOf(rec))), ResultUnchanged
			return it
		}
		old = o
	}
	o := rotation.RotationOptions{OldID: old.ID, Variable: k.Variable, Scope: k.Scope, UpdateVariables: k.UpdateVariables,
		KeepVariables: k.KeepVariables, Verify: k.Verify, Confirmed: true, GoOn: true, Ledger: env.ledger, Keys: h.store,
		DeleteWithUnreadGroups: k.DeleteWithUnreadGroups}
	if h.store != nil {
		o.OldID, o.OldRef = 0, old.PublicKey
	}
	r := rotation.NewRotation(it.Project.Ref, o)
	r.Project, r.Old = it.Project, old
	r, err := r.PlanRead(ctx, env.API, h.keys, env.Groups.Ancestors(ctx, env.API, it.Project.Path), h.vars)
	res := RotationResult{Old: old, Rotation: &r}
	switch {
	case err != nil:
		it.Skip, it.Result, it.Err = "could not be planned", ResultFailed, err
	case r.VariablesInQuestion():
		it.Err = &OtherVariablesError{Holders: r.OthersHoldingOldDSN()}
		it.Skip, it.Result = it.Err.Error(), ResultFailed
	case len(r.GroupUses) > 0 && !k.KeepVariables:
		it.Err = &rotation.GroupVariablesError{Uses: r.GroupUsesText()}
		it.Skip, it.Result = it.Err.Error(), ResultFailed
	case len(r.GroupsUnread) > 0 && !k.DeleteWithUnreadGroups:
		ue := r.UnreadGroupsError()
		it.Err = ue
		it.Skip, it.Result = "not rotated: "+ue.Reason, ResultFailed
	default:
		it.Action = "rotate key " + keystore.KeyName(old)
		if r.GoingOn() {
			res.GoesOn, res.New = true, rotation.NewKeyOf(*r.Earlier)
			it.Action = fmt.Sprintf("go on with key %s, made by an unfinished rotation (%s), to replace key %s",
				keystore.KeyName(rotation.NewKeyOf(*r.Earlier)), r.Earlier.Started.Local().Format("2006-01-02 15:04"), keystore.KeyName(old))
		}
		if out := r.OutsideScope(); len(out) > 0 {
			it.Action += fmt.Sprintf("; key %s stays while %s holds its DSN", keystore.KeyName(old), strings.Join(out, ", "))
		}
	}
	it.Detail = res
	return it
}

// finishedWords say how a recorded rotation ended: "key 9 replaced key 6".
func finishedWords(rec ledger.Record) string {
	if !rotation.Made(rec) {
		return fmt.Sprintf("key %s is gone", keystore.KeyName(rotation.OldKeyOf(rec)))
	}
	return fmt.Sprintf("key %s replaced key %s", keystore.KeyName(rotation.NewKeyOf(rec)), keystore.KeyName(rotation.OldKeyOf(rec)))
}

func (k RotateChange) Run(ctx context.Context, env *RunEnv, it Item) Item {
	res := it.rotation()
	r := *res.Rotation
	if env.campaign != nil {
		r = r.InCampaign(env.campaign.id)
	}
	r = r.ReadingGroupsWith(env.groups)
	c := env.Checks(it.Project)
	r, err := r.Advance(ctx, env.API, nil)
	if err == nil && r.Next() != rotation.StepDone {
		// The plan answered each question (GoOn, Confirmed) or stopped
		// the project; a question left means the plan did not see it.
		r = r.Stop()
		err = &OtherVariablesError{Holders: r.OthersHoldingOldDSN()}
	}
	if err != nil {
		r.SaveState() // the variables' state, where a group run left it to the end
	}
	res.Rotation = &r
	if r.New != nil {
		res.New = *r.New
	}
	it.Detail = res
	switch {
	case err == nil:
		it.Result, it.Words = ResultChanged, r.State(c)
		return it
	case r.New == nil && !r.CreateUnknown && ctx.Err() != nil:
		it.Result, it.Words = ResultNotReached, "not reached: the run was interrupted before the new key was created; nothing was changed"
		return it
	case ctx.Err() != nil || r.CreateUnknown:
		it.Result = ResultUnderWay
	default:
		it.Result = ResultFailed
	}
	it.Err = err
	it.Words = r.Failure(env.Explain, c)
	var unsafe *rotation.UnsafeDeleteError
	if errors.As(err, &unsafe) && unsafe.Groups {
		it.Err = &rotation.GroupVariablesError{Uses: r.GroupUsesText()}
	}
	return it
}

// prepare writes the records of the coming projects' creates, on disk, in
// one batch: each create then needs no sync of its own. A project whose
// record could not be written makes no key.
func (k RotateChange) prepare(env *RunEnv, items []Item) []Item {
	l := k.Ledger
	if l == nil {
		return items
	}
	now := *l.Stamp()
	var recs []ledger.Record
	var at []int
	for i, it := range items {
		res := it.rotation()
		r := res.Rotation
		if !it.Acts() || r == nil || r.New != nil || r.Earlier != nil {
			continue
		}
		c := *r
		if env.campaign != nil {
			c = c.InCampaign(env.campaign.id)
		}
		c = c.Creating(now)
		res.Rotation = &c
		items[i].Detail = res
		recs = append(recs, c.Record())
		at = append(at, i)
	}
	if len(recs) == 0 {
		return items
	}
	if err := l.Store().AppendAll(recs, true); err != nil {
		for _, i := range at {
			it := &items[i]
			it.Action, it.Result, it.Err = "", ResultFailed, &rotation.LedgerError{Before: "creating the new key", Err: err}
			it.Skip = "the rotation ledger could not be written, so no key was made"
		}
	}
	return items
}

// notReached closes the record prepare wrote for a project the run never
// began: its create was never sent.
func (k RotateChange) notReached(env *RunEnv, it Item) {
	if r := it.rotation().Rotation; r != nil {
		k.Ledger.NotReached(*r)
	}
}

// OtherVariablesError stops a project's rotation before its create: other
// variables than the one rotated hold its DSN, and nobody said what they
// get. Each front end words what to do about it.
type OtherVariablesError struct {
	// Holders names them: "CI/CD variable DEPLOY_DSN (all environments) holds".
	Holders string
}

func (e *OtherVariablesError) Error() string {
	return e.Holders + " the old DSN too"
}

// RotationResult is a rotation's: the old key and the new one (zero until
// made; a Sentry key is named by its public key), and the rotation itself,
// planned, then as it ended. GoesOn: it goes on with the key an unfinished
// rotation made; DoneBefore: an earlier run of the group rotation rotated
// it.
type RotationResult struct {
	Old, New           apiclient.ClientKey
	Rotation           *rotation.Rotation
	GoesOn, DoneBefore bool
}

func (RotationResult) KindResult() {}

// Resumes reports a rotation that goes on with an earlier run's key, or
// that an earlier run of its group rotation finished.
func (r RotationResult) Resumes() (goesOn, doneBefore bool) { return r.GoesOn, r.DoneBefore }

// rotation is the item's rotation result (zero for another kind).
func (it Item) rotation() RotationResult {
	r, _ := it.Detail.(RotationResult)
	return r
}
