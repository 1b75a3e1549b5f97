package change

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/errtrack/errtrack/internal/hosturl"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/wording"
)

// A group rotation (a campaign in the ledger) is every run of `keys rotate
// --group` and of the console's rotation of marked projects for one
// variable, in one environment scope, on one host: the projects its runs
// set out to rotate, each rotated once. A run started again leaves the
// projects an earlier run rotated alone, until a run ends with none failed,
// none interrupted and none of its projects left: the campaign is then
// finished, and the next run rotates every project again. One run of a
// campaign at a time, whatever process runs it.

// ErrRunUnderWay: another run of the same group rotation is under way.
var ErrRunUnderWay = errors.New("another errtrack run of this group rotation is under way")

// ErrLedgerChanged: another run changed the ledger's record of the plan's
// projects between the plan and its start.
var ErrLedgerChanged = errors.New("another errtrack run changed these projects' rotations since this plan was made")

// campaigner is a kind of change kept as a campaign.
type campaigner interface {
	openCampaign() (*campaignPlan, error)
}

// campaignPlan is a plan's view of its campaign.
type campaignPlan struct {
	ledger          *rotation.Rotations
	variable, scope string
	// id and rec are the open campaign's (id empty: none yet).
	id  string
	rec ledger.Record
	// version is the ledger's as the plan ended; acting the projects the
	// plan sets out to rotate.
	version uint64
	acting  []int64
}

func (k RotateChange) openCampaign() (*campaignPlan, error) {
	c := &campaignPlan{ledger: k.Ledger, variable: k.Variable, scope: k.Scope}
	if k.Ledger == nil {
		return c, nil
	}
	if err := k.Ledger.Store().Refresh(); err != nil {
		return nil, err
	}
	if rec, ok := c.find(); ok {
		c.id, c.rec = rec.ID, rec
	}
	return c, nil
}

// find is the open campaign of the variable and scope on the host.
func (c *campaignPlan) find() (ledger.Record, bool) {
	for _, r := range c.ledger.Store().Records(func(r ledger.Record) bool {
		return r.Kind == ledger.KindCampaign && hosturl.Same(r.Host, c.ledger.Host()) && r.Variable == c.variable &&
			r.Scope == c.scope && r.IsOpen()
	}) {
		return r, true
	}
	return ledger.Record{}, false
}

// planned notes what the plan sets out to rotate, and the ledger's version.
func (c *campaignPlan) planned(items []Item) {
	for _, it := range items {
		if it.Acts() {
			c.acting = append(c.acting, it.Project.ID)
		}
	}
	if c.ledger != nil {
		c.version = c.ledger.Store().Version()
	}
}

// campaignDone is the rotation of the project an earlier run of the open
// campaign finished.
func (e *PlanEnv) campaignDone(projectID int64) (ledger.Record, bool) {
	c := e.campaign
	if c == nil || c.id == "" {
		return ledger.Record{}, false
	}
	for _, r := range c.ledger.Store().ProjectRotations(c.ledger.Host(), projectID, func(r ledger.Record) bool {
		return r.Campaign == c.id && (r.Phase == ledger.PhaseDone || r.Phase == ledger.PhaseSettled)
	}) {
		return r, true
	}
	return ledger.Record{}, false
}

// Begin starts a run of the plan: for a rotation, it claims the campaign
// (held until release: one run at a time), refuses a plan older than
// another run's changes to its projects, and records the projects it sets
// out to rotate, so the campaign stays open until each is rotated,
// whatever runs do it.
func (p Plan) Begin(group string) (release func(), err error) {
	c := p.campaign
	if c == nil || c.ledger == nil {
		return func() {}, nil
	}
	l := c.ledger
	release, err = l.Store().Claim(ledger.CampaignClaim(l.Host(), c.variable, c.scope))
	switch {
	case errors.Is(err, ledger.ErrBusy):
		return nil, fmt.Errorf("%w (%s on %s): wait for it to end, then plan again", ErrRunUnderWay, c.label(), l.Host())
	case err != nil:
		return nil, err
	}
	fail := func(err error) (func(), error) {
		release()
		return nil, err
	}
	mine := make(map[int64]bool, len(p.Items))
	for _, it := range p.Items {
		mine[it.Project.ID] = true
	}
	changed, err := l.Store().ChangedSince(c.version, func(r ledger.Record) bool {
		if r.Kind == ledger.KindCampaign {
			return hosturl.Same(r.Host, l.Host()) && r.Variable == c.variable && r.Scope == c.scope
		}
		return hosturl.Same(r.Host, l.Host()) && mine[r.ProjectID]
	})
	switch {
	case err != nil:
		return fail(err)
	case changed:
		return fail(fmt.Errorf("%w: plan again", ErrLedgerChanged))
	}
	rec, ok := c.find()
	if !ok {
		rec = l.NewRecord(ledger.KindCampaign, "c-")
		rec.Variable, rec.Scope, rec.Group, rec.Phase = c.variable, c.scope, group, ledger.CampaignOpen
	}
	for _, id := range c.acting {
		if !slices.Contains(rec.Projects, id) {
			rec.Projects = append(rec.Projects, id)
		}
	}
	if err := l.Put(rec, true); err != nil {
		return fail(err)
	}
	c.id, c.rec = rec.ID, rec
	return release, nil
}

func (c *campaignPlan) label() string {
	if c.scope == "" {
		return "the keys " + c.variable + " holds"
	}
	return fmt.Sprintf("the keys %s (environment %s) holds", c.variable, c.scope)
}

// Outside are the campaign's projects this run does not reach and an
// earlier run did not finish: while any is left, the campaign stays open.
func (p Plan) Outside() []int64 {
	c := p.campaign
	if c == nil || c.id == "" {
		return nil
	}
	rec, ok := c.ledger.Store().Get(c.id)
	if !ok {
		return nil
	}
	mine := make(map[int64]bool, len(p.Items))
	for _, it := range p.Items {
		mine[it.Project.ID] = true
	}
	env := PlanEnv{campaign: c}
	var out []int64
	for _, id := range rec.Projects {
		if _, done := env.campaignDone(id); !mine[id] && !done {
			out = append(out, id)
		}
	}
	return out
}

// OutsideWords names the projects an open group rotation set out to rotate
// and this run does not reach, whatever else happened in the run; "" when
// none. where says how to reach them, restart how to start a new group
// rotation, in the front end's terms.
func (p Plan) OutsideWords(where, restart string) string {
	out := p.Outside()
	if len(out) == 0 {
		return ""
	}
	ids := make([]string, len(out))
	for i, id := range out {
		ids[i] = fmt.Sprint(id)
	}
	label := "project IDs "
	if len(out) == 1 {
		label = "project ID "
	}
	return fmt.Sprintf("The group rotation is not finished: an earlier run set out to rotate %s this run does not reach (%s%s). %s, or %s; until then the projects rotated are left alone.",
		wording.Projects(len(out), ""), label, strings.Join(ids, ", "), wording.Capitalize(where), restart)
}

// Finish ends a run: the projects the plan found nothing to rotate in
// leave the campaign; when no project failed, none was interrupted and
// none outside the run is left, the campaign is finished (the next run
// rotates every project again).
func (p Plan) Finish() error {
	c := p.campaign
	if c == nil || c.id == "" {
		return nil
	}
	l := c.ledger
	if err := l.Store().Refresh(); err != nil {
		return err
	}
	rec, ok := l.Store().Get(c.id)
	if !ok || !rec.IsOpen() {
		return nil
	}
	env := PlanEnv{campaign: c}
	keep := rec.Projects[:0:0]
	for _, id := range rec.Projects {
		i := slices.IndexFunc(p.Items, func(it Item) bool { return it.Project.ID == id })
		if i >= 0 && !p.Items[i].Acts() && p.Items[i].Result != ResultFailed {
			if _, done := env.campaignDone(id); !done {
				continue // nothing to rotate there now
			}
		}
		keep = append(keep, id)
	}
	rec.Projects = keep
	if p.Failed() == 0 && !p.Interrupted() && len(p.Outside()) == 0 {
		rec.Phase, rec.Ended = ledger.CampaignFinished, l.Stamp()
	}
	return l.Put(rec, true)
}

// RestartCampaign starts a new group rotation of the variable in scope:
// the open one ends, so the projects its runs rotated are rotated again.
// Keys its runs made and did not finish with stay in the ledger: a run
// goes on with them, never makes them twice.
func RestartCampaign(l *rotation.Rotations, variable, scope string) error {
	if l == nil {
		return nil
	}
	c := &campaignPlan{ledger: l, variable: variable, scope: scope}
	release, err := l.Store().Claim(ledger.CampaignClaim(l.Host(), variable, scope))
	switch {
	case errors.Is(err, ledger.ErrBusy):
		return fmt.Errorf("%w (%s on %s): wait for it to end", ErrRunUnderWay, c.label(), l.Host())
	case err != nil:
		return err
	}
	defer release()
	if err := l.Store().Refresh(); err != nil {
		return err
	}
	rec, ok := c.find()
	if !ok {
		return nil
	}
	rec.Phase, rec.Ended, rec.Note = ledger.CampaignRestarted, l.Stamp(), "restarted: a new group rotation began"
	return l.Put(rec, true)
}
