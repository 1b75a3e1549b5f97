package rotation

import (
	"context"
	"strings"
	"time"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
)

// What a group change does with a project's rotation: plan it from what
// the group's plan read once, tie it to the group rotation (the campaign
// in the ledger), and record its create ahead of the run, in one batch.

// PlanRead plans the rotation of its old key from what a group's plan
// read: the project's keys and variables, and its ancestor groups'
// variables, read once per group. A rotation an unfinished one made a
// key for goes on with that key.
func (r Rotation) PlanRead(ctx context.Context, api keystore.KeysAPI, keys []apiclient.ClientKey, groups projectscope.GroupVariables, vars []apiclient.Variable) (Rotation, error) {
	r = r.sawKeys(keystore.KeysRead{Seen: keys, Count: len(keys), Counted: true})
	r.GroupUses, r.GroupsUnread = matchGroupUses(groups.Read, strings.TrimSpace(r.Old.DSN)), groups.Unread
	r.groupUsesKnown = true
	r, err := r.planFrom(ctx, api, vars, nil)
	if err == nil && r.resume == decidedUpdate {
		r = r.goOn()
	}
	return r, err
}

// InCampaign ties a rotation whose create was not recorded ahead to the
// group rotation id; one that goes on with an earlier run's record brings
// that record into it.
func (r Rotation) InCampaign(id string) Rotation {
	if r.intent {
		return r
	}
	r.opts.Campaign = id
	if r.rec.ID != "" && r.rec.Campaign == "" {
		r.rec.Campaign = id // gone on with: now part of it
	}
	return r
}

// Creating is the rotation with the record of its create made ahead, at
// now; Record is that record, for the front end to write with others' in
// one batch.
func (r Rotation) Creating(now time.Time) Rotation {
	r.rec, r.intent = r.creatingRecord(now), true
	return r
}

// Record is the rotation's ledger record (zero until its create is under
// way, or it goes on with an earlier one).
func (r Rotation) Record() ledger.Record { return r.rec }

// NotReached closes the record made ahead of a rotation's create
// (Creating) for a project the run never began: its create was never
// sent.
func (l *Rotations) NotReached(r Rotation) {
	if l == nil || !r.intent {
		return
	}
	rec := r.rec
	rec.Phase, rec.Ended, rec.Note = ledger.PhaseFailed, l.Stamp(), "not reached: the run was interrupted before its create"
	_ = l.Put(rec, false)
}

// ReadingGroupsWith has the rotation read its ancestor groups' variables
// again, right before the delete, through g: a group run reads each group
// once for all its projects.
func (r Rotation) ReadingGroupsWith(g *projectscope.GroupVariablesReader) Rotation {
	r.groups = g
	return r
}
