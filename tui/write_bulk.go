package tui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/projectscope"
	"github.com/errtrack/errtrack/internal/wording"
	"github.com/errtrack/errtrack/internal/workflow"
)

// A bulk change runs the workflow's plan of a group change (the commands'
// own, never a second implementation) on the projects marked on the list:
// it plans (a read, its answer dropped when another plan was asked for
// since), asks once with the plan, then runs the plan's own Run, whose
// progress arrives here as messages: the status line says how far it is
// wherever the user is, a project screen showing a project it changed
// updates, and a report ends it, which the user can reopen. The change's
// kind is the workflow's value: nothing here knows which it is.

// defaultBulkVariable is the CI/CD variable whose DSN a rotation or a test
// event uses unless the user names another, as the commands' default.
const defaultBulkVariable = "SENTRY_DSN"

// Messages of a bulk change.
type (
	// planBulkMsg asks the root to plan kind for the marked projects;
	// variable, when the change names one, is offered again next time.
	planBulkMsg struct {
		kind     workflow.Kind
		variable string
		projects []apiclient.Project
		// build, when set, makes the kind inside the plan's command (a
		// migration reads the Sentry's token first); doing names it
		// meanwhile, and migrate is offered again next time.
		build   func(context.Context) (workflow.Kind, error)
		doing   string
		migrate *MigrateTarget
	}
	// bulkPlannedMsg is the plan's answer, for the request id.
	bulkPlannedMsg struct {
		id       uint64
		plan     workflow.Plan
		marked   int
		err      error
		projects []apiclient.Project
		// asked: the user answered the unread groups' question (No).
		asked bool
	}
	// startBulkMsg is the user's yes to the plan.
	startBulkMsg struct {
		plan   workflow.Plan
		marked int
	}
	// bulkBegunMsg answers the start of a run: the claim on a rotation's
	// campaign, held until release, or why the run cannot start.
	bulkBegunMsg struct {
		id      uint64
		release func()
		err     error
	}
	// bulkEventMsg is a project starting or ending; bulkEndedMsg the run's
	// end, with every result.
	bulkEventMsg struct {
		id uint64
		ev workflow.Event
	}
	bulkEndedMsg struct {
		id   uint64
		plan workflow.Plan
	}
	// bulkBatchMsg is the events the run sent since the last batch, in
	// order: one frame for them all.
	bulkBatchMsg []tea.Msg
	// bulkDoneMsg tells the screens a bulk change ran through; failed
	// are the projects that failed, which stay marked to try again.
	bulkDoneMsg struct{ failed map[int64]bool }
)

// bulkRun is a bulk change under way: its plan with the results so far.
type bulkRun struct {
	id     uint64
	plan   workflow.Plan
	marked int
	// running are the items under way; done counts the items ended, of
	// acting, the plan's count at the start (counted once: a count per
	// event made a run over n projects cost n² steps).
	running map[int]bool
	done    int
	acting  int
	events  chan tea.Msg
	pace    *bulkPace
	// release lets go of a rotation's campaign claim.
	release func()
	// stopped: the user stopped it; the run reads it from its goroutine.
	stopped atomic.Bool
}

// words name the change.
func (r *bulkRun) words() workflow.ChangeWords { return r.plan.Kind.Words() }

// bulkTimeout bounds a plan or run of n projects: the request timeout for
// each round of three projects.
func bulkTimeout(d Deps, n int) time.Duration {
	t := d.RequestTimeout
	if t <= 0 {
		t = 60 * time.Second
	}
	return t * time.Duration(max(1, (n+2)/3))
}

// planBulk plans with the workflow, off the UI goroutine.
func (m Model) planBulk(msg planBulkMsg) (Model, tea.Cmd) {
	if m.sh.api == nil {
		return m, nil
	}
	if r := m.sh.bulk; r != nil {
		return m.setStatus(statusMsg{text: fmt.Sprintf("%s is under way (%d of %d done): one change to several projects at a time.", r.words().Doing, r.done, r.acting), kind: statusInfo})
	}
	id := nextRequestID()
	m.sh.planning = id
	if msg.variable != "" {
		m.sh.lastVariable = msg.variable
	}
	if msg.migrate != nil {
		m.sh.lastMigrate = *msg.migrate
	}
	api, d := m.sh.api, m.sh.deps
	doing := msg.doing
	if msg.kind != nil {
		doing = msg.kind.Words().Doing
	}
	next, status := m.setStatus(statusMsg{text: fmt.Sprintf("%s: reading the %s to plan it…", doing, wording.Projects(len(msg.projects), "marked")), kind: statusInfo})
	return next, tea.Batch(status, apiCmd(m.sh.ctx(), bulkTimeout(d, len(msg.projects)), func(ctx context.Context) tea.Msg {
		kind := msg.kind
		if msg.build != nil {
			var err error
			if kind, err = msg.build(ctx); err != nil {
				return bulkPlannedMsg{id: id, marked: len(msg.projects), err: err, projects: msg.projects}
			}
		}
		p, err := workflow.PlanProjects(ctx, api, msg.projects, kind)
		return bulkPlannedMsg{id: id, plan: p, marked: len(msg.projects), err: err, projects: msg.projects}
	}))
}

// bulkPlanned shows the plan and asks once, defaulting to No; a plan
// asked for before the last one is dropped.
func (m Model) bulkPlanned(msg bulkPlannedMsg) (Model, tea.Cmd) {
	if msg.id != m.sh.planning && !msg.asked {
		return m, nil
	}
	m.sh.planning = 0
	// "Reading the projects" is over: the plan or its error says the rest.
	m.status = statusMsg{}
	m.statusSeq++
	m.resize()
	if msg.err != nil {
		if errors.Is(msg.err, apiclient.ErrUnauthorized) {
			return m.handleAuthError(msg.err)
		}
		return m.setStatus(statusMsg{text: m.bulkExplain(msg.err), kind: statusError})
	}
	if d, ok := unreadGroupsQuestion(msg); ok {
		return m, msgCmd(openDialogMsg{d: d, async: true})
	}
	p := msg.plan
	w := p.Kind.Words()
	rows := m.bulkRows(p)
	if p.Acting() == 0 {
		next, status := m.setStatus(statusMsg{text: w.Doing + ": nothing to do in the marked projects.", kind: statusInfo})
		d := infoDialog(fmt.Sprintf("%s: nothing to do in the %s", w.Doing, wording.Projects(msg.marked, "marked")), nil).withTable(rows)
		return next, tea.Batch(status, msgCmd(openDialogMsg{d: d, async: true}))
	}
	var body []string
	if w.Before != "" {
		body = append(body, w.Before)
	}
	if w.Resume != "" {
		body = append(body, w.Resume)
	}
	d := confirmDialog(fmt.Sprintf("%s in %d of %s?", w.Ask, p.Acting(), wording.Projects(msg.marked, "marked")), body, "Go", startBulkMsg{plan: p, marked: msg.marked}).withTable(rows)
	d.onNo = statusMsg{text: w.Doing + ": nothing was changed.", kind: statusInfo}
	return m, msgCmd(openDialogMsg{d: d, async: true})
}

// consoleProblems word a rotation's problem for the console: its keys
// where it has them.
func consoleProblems(k KeyMap, again string) workflow.ProblemWords {
	return workflow.ProblemWords{Again: again,
		Keys: func(ledger.Record) string { return "open the project: its Client keys tab lists them" },
		Restart: func(ledger.Record) string {
			return keyName(k.Rotate) + " on the old key, then " + keyName(k.Restart) + " (make a new key) at its question"
		}}
}

// bulkExplain words a bulk change's error: the ledger's and the
// rotations' in the workflow's words, the rest as any error.
func (m Model) bulkExplain(err error) string {
	if w, ok := workflow.Problem(err, consoleProblems(m.sh.keys, "mark them and run it again")); ok {
		return clean(w)
	}
	return m.sh.explain(err)
}

// startBulk begins the run the user said yes to: its projects the user's
// own changes are at are left out (the first change keeps the project),
// and a rotation claims its campaign first.
func (m Model) startBulk(msg startBulkMsg) (Model, tea.Cmd) {
	if m.sh.bulk != nil {
		return m, nil
	}
	p := msg.plan
	p.Items = slices.Clone(p.Items)
	for i, it := range p.Items {
		if _, busy := m.writeHolding(p.Holds(i)); it.Acts() && busy {
			p.Items[i].Action, p.Items[i].Result = "", workflow.ResultFailed
			p.Items[i].Skip = "not started: your own change to this project was under way; mark it and run again once it ended"
		}
	}
	// Room for every event (two a project, and the end): the run never
	// waits for the console to read them.
	r := &bulkRun{id: nextRequestID(), plan: p, marked: msg.marked, running: map[int]bool{}, events: make(chan tea.Msg, 2*len(p.Items)+1), pace: &bulkPace{}, acting: p.Acting()}
	m.sh.bulk = r
	next, s := m.setStatus(statusMsg{text: fmt.Sprintf("%s 0/%d…", r.words().Progress, p.Acting()), kind: statusInfo})
	group := ""
	return next, tea.Batch(s, func() tea.Msg {
		release, err := p.Begin(group)
		return bulkBegunMsg{id: r.id, release: release, err: err}
	})
}

// bulkBegun runs the plan once it holds its claim.
func (m Model) bulkBegun(msg bulkBegunMsg) (Model, tea.Cmd) {
	r := m.sh.bulk
	if r == nil || r.id != msg.id {
		if msg.release != nil {
			msg.release()
		}
		return m, nil
	}
	if msg.err != nil {
		m.sh.bulk = nil
		return m.setStatus(statusMsg{text: r.words().Doing + ": nothing was changed. " + capitalize(clean(msg.err.Error())) + ".", kind: statusError})
	}
	r.release = msg.release
	api, d, keys := m.sh.api, m.sh.deps, m.sh.keys
	env := workflow.RunEnv{API: api,
		Explain: func(err error) string { return m.sh.explainRetry(err, "mark it and run the change again") },
		Checks:  func(projectscope.Project) workflow.Checks { return consoleChecks(keys) },
		Stopped: r.stopped.Load}
	plan, ch, id := r.plan, r.events, r.id
	ctx, cancel := context.WithTimeout(m.sh.ctx(), bulkTimeout(d, plan.Acting()))
	run := func() tea.Msg {
		defer cancel()
		final := plan.Run(ctx, env, func(e workflow.Event) {
			if r, ok := e.Item.Detail.(workflow.RotationResult); ok && e.Done && r.Rotation != nil && r.Rotation.New != nil {
				d.keyCreated(e.Item.Project, r.Rotation.New.ID)
			}
			ch <- bulkEventMsg{id: id, ev: e}
		})
		ch <- bulkEndedMsg{id: id, plan: final}
		close(ch)
		return nil
	}
	return m, tea.Batch(run, waitBulk(ch, r.pace))
}

// bulkEvent is one event of the run, as a batch of one.
func (m Model) bulkEvent(msg bulkEventMsg) (Model, tea.Cmd) {
	return m.bulkBatch(bulkBatchMsg{msg})
}

// bulkBatch records the projects starting or ending, says once how far the
// run is, and tells the screens showing each project what changed.
func (m Model) bulkBatch(batch bulkBatchMsg) (Model, tea.Cmd) {
	r := m.sh.bulk
	var cmds []tea.Cmd
	var status *statusMsg
	for _, msg := range batch {
		if end, ok := msg.(bulkEndedMsg); ok {
			next, cmd := m.bulkEnded(end)
			next, quit := next.followQuitQuestion()
			return next, tea.Batch(append(cmds, cmd, quit)...)
		}
		ev, ok := msg.(bulkEventMsg)
		if !ok || r == nil || r.id != ev.id {
			return m, tea.Batch(cmds...)
		}
		i, it := ev.ev.Index, ev.ev.Item
		r.plan.Items[i] = it
		if !ev.ev.Done {
			r.running[i] = true
			continue
		}
		delete(r.running, i)
		r.done++
		kind := statusInfo
		if it.Result == workflow.ResultFailed || it.Result == workflow.ResultUnderWay {
			kind = statusError
		}
		status = &statusMsg{text: fmt.Sprintf("%s %d/%d: %s %s", r.words().Progress, r.done, r.acting, it.Project.Name(), it.Result), kind: kind}
		next, screens := m.updateAll(projectChangedMsg{project: it.Project, c: bulkChanges(it)})
		m, cmds = next, append(cmds, screens)
	}
	if status != nil {
		next, cmd := m.setStatus(*status)
		m, cmds = next, append(cmds, cmd)
	}
	next, quit := m.followQuitQuestion()
	return next, tea.Batch(append(cmds, quit, waitBulk(r.events, r.pace))...)
}

// bulkEnded ends the run: the report in a dialog, reopened with Bulk; the
// campaign is finished when the run finished it.
func (m Model) bulkEnded(msg bulkEndedMsg) (Model, tea.Cmd) {
	r := m.sh.bulk
	if r == nil || r.id != msg.id {
		return m, nil
	}
	m.sh.bulk = nil
	p, release := msg.plan, r.release
	finish := sideEffect(func() {
		_ = p.Finish()
		if release != nil {
			release()
		}
	})
	w := p.Kind.Words()
	title := fmt.Sprintf("%s: done in %s", w.Doing, wording.Projects(p.Acting(), ""))
	kind := statusSuccess
	failed := map[int64]bool{}
	underWay := 0
	for _, it := range p.Items {
		if it.Result == workflow.ResultFailed || it.Result == workflow.ResultUnderWay {
			failed[it.Project.ID] = true
		}
		if it.Result == workflow.ResultUnderWay {
			underWay++
		}
	}
	again := ""
	if n := len(failed); n > 0 {
		title = fmt.Sprintf("%s: %d of %s failed", w.Doing, n-underWay, wording.Projects(len(p.Items), ""))
		if underWay > 0 {
			title = fmt.Sprintf("%s: %d of %s failed, %d unfinished", w.Doing, n-underWay, wording.Projects(len(p.Items), ""), underWay)
		}
		kind = statusError
		again = " The ones that failed stay marked, to try again."
	}
	var body []string
	if w := p.OutsideWords("mark them too and rotate again", "start a new group rotation from a shell (errtrack keys rotate --group … --restart)"); w != "" {
		body = append(body, clean(w))
	}
	m.sh.lastBulk = infoDialog(title, body).withTable(m.bulkRows(p))
	m.sh.hasBulk = true
	reopen := keyName(m.sh.keys.Bulk)
	if again != "" { // with marks, Bulk offers the changes; the report is one of them
		reopen += " then " + keyName(m.sh.keys.BulkReport)
	}
	next, status := m.setStatus(statusMsg{text: title + " (" + reopen + " on the projects list shows the report again)." + again, kind: kind})
	return next, tea.Batch(finish, status, msgCmd(openDialogMsg{d: m.sh.lastBulk, async: true}), msgCmd(bulkDoneMsg{failed: failed}))
}
