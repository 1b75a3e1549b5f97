package tui

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/workflow"
)

// A bulk change acts on the projects marked on the list with the group
// plans of the commands (never a second implementation): it plans (a read,
// its answer dropped when another plan was asked for since), asks once with
// the plan, then runs each project as a write of its own, a few at once,
// saying in the status line how far it is wherever the user is, and ends
// with a report the user can reopen.

type bulkKind int

const (
	bulkEnable bulkKind = iota
	bulkDisable
	bulkRotate
	bulkVerify
)

// defaultBulkVariable is the CI/CD variable whose DSN a rotation or a test
// event uses unless the user names another, as the commands' default.
const defaultBulkVariable = "SENTRY_DSN"

// bulkConcurrency is how many projects change at once: the group
// commands' own number, polite to the server.
const bulkConcurrency = 3

// variableName is what GitLab accepts as a CI/CD variable's key.
var variableName = regexp.MustCompile(`^[A-Za-z0-9_]{1,255}$`)

// doing names the change in a sentence: "Rotating the keys SENTRY_DSN holds".
func (k bulkKind) doing(variable string) string {
	switch k {
	case bulkEnable:
		return "Enabling error tracking"
	case bulkDisable:
		return "Disabling error tracking"
	case bulkRotate:
		return "Rotating the keys " + variable + " holds"
	}
	return "Sending test events with the DSNs " + variable + " holds"
}

// ask names the change in a question: "Rotate the keys SENTRY_DSN holds".
func (k bulkKind) ask(variable string) string {
	switch k {
	case bulkEnable:
		return "Enable error tracking"
	case bulkDisable:
		return "Disable error tracking"
	case bulkRotate:
		return "Rotate the keys " + variable + " holds"
	}
	return "Send test events with the DSNs " + variable + " holds"
}

// progress names the change in the status line: "Rotating 3/7: demo/ios".
func (k bulkKind) progress() string {
	return [...]string{"Enabling", "Disabling", "Rotating", "Test events"}[k]
}

// bulkPlan is a bulk change's plan, then its results as they come: the
// workflow's plan of its kind.
type bulkPlan struct {
	kind     bulkKind
	variable string
	// marked is how many projects were marked (the plan may skip some).
	marked   int
	settings workflow.SettingsPlan
	rotation workflow.GroupPlan
	verify   workflow.VerifyPlan
}

// planBulk plans kind for projects with the commands' plan functions.
func planBulk(ctx context.Context, api API, kind bulkKind, variable string, projects []apiclient.Project, j *workflow.Journal) bulkPlan {
	p := bulkPlan{kind: kind, variable: variable, marked: len(projects)}
	switch kind {
	case bulkEnable, bulkDisable:
		p.settings = workflow.PlanSettingsFor(ctx, api, projects, kind == bulkEnable)
	case bulkRotate:
		p.rotation = workflow.PlanRotationFor(ctx, api, projects, workflow.GroupOptions{Variable: variable}, j)
	case bulkVerify:
		p.verify = workflow.PlanVerifyFor(ctx, api, projects, variable, "")
	}
	return p
}

func (p bulkPlan) size() int {
	switch p.kind {
	case bulkRotate:
		return len(p.rotation.Items)
	case bulkVerify:
		return len(p.verify.Items)
	}
	return len(p.settings.Items)
}

// acts reports that the plan changes item i (or sends it an event).
func (p bulkPlan) acts(i int) bool {
	switch p.kind {
	case bulkRotate:
		return p.rotation.Items[i].Skip == ""
	case bulkVerify:
		return p.verify.Items[i].Skip == ""
	}
	return p.settings.Items[i].Action != ""
}

func (p bulkPlan) project(i int) workflow.Project {
	switch p.kind {
	case bulkRotate:
		return p.rotation.Items[i].Project
	case bulkVerify:
		return p.verify.Items[i].Project
	}
	return p.settings.Items[i].Project
}

func (p bulkPlan) result(i int) string {
	switch p.kind {
	case bulkRotate:
		return p.rotation.Items[i].Result
	case bulkVerify:
		return p.verify.Items[i].Result
	}
	return p.settings.Items[i].Result
}

// item is the plan of item i alone, for one project's write.
func (p bulkPlan) item(i int) bulkPlan {
	q := p
	switch p.kind {
	case bulkRotate:
		q.rotation.Items = slices.Clone(p.rotation.Items[i : i+1])
	case bulkVerify:
		q.verify.Items = slices.Clone(p.verify.Items[i : i+1])
	default:
		q.settings.Items = slices.Clone(p.settings.Items[i : i+1])
	}
	return q
}

// set takes item i's result from the one-project plan part.
func (p *bulkPlan) set(i int, part bulkPlan) {
	switch p.kind {
	case bulkRotate:
		p.rotation.Items[i] = part.rotation.Items[0]
	case bulkVerify:
		p.verify.Items[i] = part.verify.Items[0]
	default:
		p.settings.Items[i] = part.settings.Items[0]
	}
}

// errNotStarted is a project a bulk change could not start.
var errNotStarted = errors.New("not started: another change to this project was under way, or the console was logged out")

// fail records item i as failed before it ran.
func (p *bulkPlan) fail(i int, err error) {
	switch p.kind {
	case bulkRotate:
		it := &p.rotation.Items[i]
		it.Result, it.Err, it.Words = workflow.ResultFailed, err, ""
	case bulkVerify:
		it := &p.verify.Items[i]
		it.Result, it.Err = workflow.ResultFailed, err
	default:
		it := &p.settings.Items[i]
		it.Result, it.Err = workflow.ResultFailed, err
	}
}

func (p bulkPlan) acting() int {
	switch p.kind {
	case bulkRotate:
		return p.rotation.Acting()
	case bulkVerify:
		return p.verify.Acting()
	}
	return p.settings.Acting()
}

func (p bulkPlan) failed() int {
	switch p.kind {
	case bulkRotate:
		return p.rotation.Failed()
	case bulkVerify:
		return p.verify.Failed()
	}
	return p.settings.Failed()
}

// run carries out the plan (one project's part) with the workflow's Run.
func (p bulkPlan) run(ctx context.Context, api API, d Deps, j *workflow.Journal) bulkPlan {
	switch p.kind {
	case bulkEnable, bulkDisable:
		p.settings = p.settings.Run(ctx, api, nil)
	case bulkRotate:
		keys, _ := DefaultKeyMap().Rebind(d.Keys)
		words := func(err error) string {
			return explain.Error(err, explain.Context{Host: d.Host, Retry: "mark it and rotate again", Login: "log in again", TokenEnv: d.TokenEnv})
		}
		p.rotation = p.rotation.Run(ctx, api, j, words, func(workflow.Project) workflow.Checks { return consoleChecks(keys) }, func(it workflow.GroupItem) {
			if r := it.Rotation; r.New != nil {
				d.keyCreated(it.Project, r.New.ID)
			}
		})
	case bulkVerify:
		p.verify = p.verify.Run(ctx, api, nil)
	}
	return p
}

// rows are the plan or the report, one row per project: its result
// ("planned" before the run) and what was or will be done, or why not.
func (p bulkPlan) rows(explain func(error) string, k KeyMap) []reportRow {
	var out []reportRow
	add := func(proj workflow.Project, result, what string) {
		if result == "" {
			result = "planned"
		}
		out = append(out, reportRow{result, clean(proj.Name()), clean(what)})
	}
	switch p.kind {
	case bulkEnable, bulkDisable:
		for _, it := range p.settings.Items {
			what := it.Action
			if what == "" {
				what = "leave as it is: " + it.Skip
			}
			if it.Err != nil {
				what = explain(it.Err)
			}
			add(it.Project, it.Result, what)
		}
	case bulkRotate:
		for _, it := range p.rotation.Items {
			what := it.Action()
			if it.Skip != "" {
				what = it.Skip // the result word says skipped
			}
			var others *workflow.OtherVariablesError
			var groups *workflow.GroupVariablesError
			switch {
			case errors.As(it.Err, &groups):
				what = it.Words + " Point them at the new DSN in the group's Settings > CI/CD > Variables and run the rotation again, or open the project and rotate it there (" +
					keyName(k.Rotate) + "): its delete question names them."
			case errors.As(it.Err, &others):
				// The commands' words name their flags; here, the single
				// rotation asks.
				what = others.Holders + " the old DSN too, so key " + fmt.Sprint(it.OldID) + " stays: open the project and rotate it there (" +
					keyName(k.Rotate) + ") to choose what they get. " + it.Rotation.State(consoleChecks(k))
			case it.Words != "":
				what = it.Words
			case it.Err != nil:
				what = explain(it.Err)
			}
			add(it.Project, it.Result, what)
		}
	case bulkVerify:
		for _, it := range p.verify.Items {
			what := it.Action()
			if it.Skip != "" {
				what = it.Skip
			}
			switch {
			case it.Err != nil:
				what = explain(it.Err)
			case it.Check != nil:
				what = fmt.Sprintf("key %d: the test event was accepted (HTTP %d)", it.Key.ID, it.Check.StatusCode)
			}
			add(it.Project, it.Result, what)
		}
	}
	// What needs the user comes first: failures, then what changes.
	rank := func(r reportRow) int {
		switch r.result {
		case workflow.ResultFailed:
			return 0
		case workflow.ResultUnchanged:
			return 2
		case workflow.ResultSkipped:
			return 3
		}
		return 1
	}
	slices.SortStableFunc(out, func(a, b reportRow) int { return rank(a) - rank(b) })
	return out
}

// bulkTimeout bounds a plan of n projects: the request timeout for each
// round of bulkConcurrency projects.
func bulkTimeout(d Deps, n int) time.Duration {
	t := d.RequestTimeout
	if t <= 0 {
		t = 60 * time.Second
	}
	return t * time.Duration(max(1, (n+bulkConcurrency-1)/bulkConcurrency))
}

// Messages of a bulk change.
type (
	// planBulkMsg asks the root to plan kind for the marked projects.
	planBulkMsg struct {
		kind     bulkKind
		variable string
		projects []apiclient.Project
	}
	// bulkPlannedMsg is the plan's answer, for the request id.
	bulkPlannedMsg struct {
		id      uint64
		plan    bulkPlan
		journal *workflow.Journal
		err     error
	}
	// startBulkMsg is the user's yes to the plan.
	startBulkMsg struct {
		plan    bulkPlan
		journal *workflow.Journal
	}
	// bulkBegunMsg answers the start of a rotation's run: the journal's
	// run lock, held until release, or why the run cannot start.
	bulkBegunMsg struct {
		id      uint64
		release func()
		err     error
	}
	// bulkDoneMsg tells the screens a bulk change ran through; failed
	// are the projects that failed, which stay marked to try again.
	bulkDoneMsg struct{ failed map[int64]bool }
)

// bulkRun is a bulk change under way: its plan with the results so far.
type bulkRun struct {
	id      uint64
	plan    bulkPlan
	journal *workflow.Journal
	next    int // the next item to look at
	running int
	done    int // items that ran
	// release lets go of the journal's run lock (a rotation's).
	release func()
}

// planBulk reads what the plan needs, off the UI goroutine; a rotation
// opens the commands' journal first, and without it changes nothing.
func (m Model) planBulk(msg planBulkMsg) (Model, tea.Cmd) {
	if m.sh.api == nil {
		return m, nil
	}
	if r := m.sh.bulk; r != nil {
		return m.setStatus(statusMsg{text: fmt.Sprintf("%s is under way (%d of %d done): one change to several projects at a time.", r.plan.kind.doing(r.plan.variable), r.done, r.plan.acting()), kind: statusInfo})
	}
	id := nextRequestID()
	m.sh.planning = id
	m.sh.lastVariable = msg.variable
	api, d := m.sh.api, m.sh.deps
	next, status := m.setStatus(statusMsg{text: fmt.Sprintf("%s: reading the %s to plan it…", msg.kind.doing(msg.variable), workflow.Projects(len(msg.projects), "marked")), kind: statusInfo})
	return next, tea.Batch(status, apiCmd(bulkTimeout(d, len(msg.projects)), func(ctx context.Context) tea.Msg {
		var j *workflow.Journal
		if msg.kind == bulkRotate && d.GroupJournal != nil {
			var err error
			if j, err = d.GroupJournal(d.Host, msg.variable); err != nil {
				return bulkPlannedMsg{id: id, err: fmt.Errorf("the rotations' journal could not be opened, so nothing was rotated: %w", err)}
			}
		}
		return bulkPlannedMsg{id: id, plan: planBulk(ctx, api, msg.kind, msg.variable, msg.projects, j), journal: j}
	}))
}

// bulkPlanned shows the plan and asks once, defaulting to No; a plan
// asked for before the last one is dropped.
func (m Model) bulkPlanned(msg bulkPlannedMsg) (Model, tea.Cmd) {
	if msg.id != m.sh.planning {
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
		return m.setStatus(statusMsg{text: m.sh.explain(msg.err), kind: statusError})
	}
	p := msg.plan
	doing := p.kind.doing(p.variable)
	rows := p.rows(m.sh.explain, m.sh.keys)
	if p.acting() == 0 {
		next, status := m.setStatus(statusMsg{text: doing + ": nothing to do in the marked projects.", kind: statusInfo})
		d := infoDialog(fmt.Sprintf("%s: nothing to do in the %s", doing, workflow.Projects(p.marked, "marked")), nil).withTable(rows)
		return next, tea.Batch(status, msgCmd(openDialogMsg{d: d, async: true}))
	}
	var body []string
	switch p.kind {
	case bulkVerify:
		body = append(body, workflow.VerifyWarning)
	case bulkRotate:
		words := "Each rotation is the single rotation's plan: the new key is checked before " + p.variable +
			" points at it and the old key goes; a group variable holding an old DSN keeps its old key."
		if msg.journal != nil {
			words += " An interrupted run goes on where it stopped, here or with errtrack keys rotate --group; the projects it rotated are left alone until a run ends with none failed."
		}
		body = append(body, words)
	}
	d := confirmDialog(fmt.Sprintf("%s in %d of %s?", p.kind.ask(p.variable), p.acting(), workflow.Projects(p.marked, "marked")), body, "Go", startBulkMsg{plan: p, journal: msg.journal}).withTable(rows)
	d.onNo = statusMsg{text: doing + ": nothing was changed.", kind: statusInfo}
	return m, msgCmd(openDialogMsg{d: d, async: true})
}

// startBulk runs the plan the user said yes to.
func (m Model) startBulk(msg startBulkMsg) (Model, tea.Cmd) {
	if m.sh.bulk != nil {
		return m, nil
	}
	r := &bulkRun{id: nextRequestID(), plan: msg.plan, journal: msg.journal}
	m.sh.bulk = r
	status := fmt.Sprintf("%s 0/%d…", msg.plan.kind.progress(), msg.plan.acting())
	next, s := m.setStatus(statusMsg{text: status, kind: statusInfo})
	if msg.plan.kind == bulkRotate && msg.journal != nil {
		// One run of a journal at a time, whatever process runs it.
		plan, j := msg.plan.rotation, msg.journal
		return next, tea.Batch(s, func() tea.Msg {
			release, err := plan.Begin(j)
			return bulkBegunMsg{id: r.id, release: release, err: err}
		})
	}
	next, cmd := next.bulkMore()
	return next, tea.Batch(cmd, s)
}

// bulkBegun starts a rotation's projects once its run holds the journal.
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
		return m.setStatus(statusMsg{text: r.plan.kind.doing(r.plan.variable) + ": nothing was changed. " + capitalize(clean(msg.err.Error())) + ".", kind: statusError})
	}
	r.release = msg.release
	return m.bulkMore()
}

// bulkMore starts projects until bulkConcurrency run; with none left and
// none running, it reports.
func (m Model) bulkMore() (Model, tea.Cmd) {
	r := m.sh.bulk
	var cmds []tea.Cmd
	for r.running < bulkConcurrency && r.next < r.plan.size() {
		i := r.next
		r.next++
		if !r.plan.acts(i) {
			continue
		}
		w := bulkItemWrite{runID: r.id, i: i, plan: r.plan.item(i), journal: r.journal}
		before := len(m.sh.pending)
		var cmd tea.Cmd
		m, cmd = m.startWrite(w)
		cmds = append(cmds, cmd)
		if len(m.sh.pending) == before {
			// Not started: logged out, or the user's own change to the
			// project is under way.
			r.plan.fail(i, errNotStarted)
			r.done++
			continue
		}
		r.running++
	}
	if r.running == 0 {
		next, cmd := m.bulkReport()
		cmds = append(cmds, cmd)
		m = next
	}
	return m, tea.Batch(cmds...)
}

// bulkReport ends the run: the report in a dialog, reopened with Bulk.
func (m Model) bulkReport() (Model, tea.Cmd) {
	r := m.sh.bulk
	p, journal := r.plan, r.journal
	m.sh.bulk = nil
	var finish tea.Cmd
	if p.kind == bulkRotate && journal != nil {
		// Every project ran: the journal is closed when none failed.
		rotation, release := p.rotation, r.release
		finish = sideEffect(func() {
			_ = rotation.Finish(journal)
			if release != nil {
				release()
			}
		})
	}
	doing := p.kind.doing(p.variable)
	title := fmt.Sprintf("%s: done in %s", doing, workflow.Projects(p.acting(), ""))
	kind := statusSuccess
	failed := map[int64]bool{}
	for i := range p.size() {
		if p.result(i) == workflow.ResultFailed {
			failed[p.project(i).ID] = true
		}
	}
	again := ""
	if f := p.failed(); f > 0 {
		title = fmt.Sprintf("%s: %d of %s failed", doing, f, workflow.Projects(p.acting(), ""))
		kind = statusError
		again = " The ones that failed stay marked, to try again."
	}
	m.sh.lastBulk = infoDialog(title, nil).withTable(p.rows(m.sh.explain, m.sh.keys))
	m.sh.hasBulk = true
	reopen := keyName(m.sh.keys.Bulk)
	if again != "" { // with marks, Bulk offers the changes; the report is one of them
		reopen += " then " + keyName(m.sh.keys.BulkReport)
	}
	next, status := m.setStatus(statusMsg{text: title + " (" + reopen + " on the projects list shows the report again)." + again, kind: kind})
	return next, tea.Batch(finish, status, msgCmd(openDialogMsg{d: m.sh.lastBulk, async: true}), msgCmd(bulkDoneMsg{failed: failed}))
}

// bulkItemWrite is one project of a bulk change: its part of the plan.
type bulkItemWrite struct {
	runID   uint64
	i       int
	plan    bulkPlan
	journal *workflow.Journal
}

func (w bulkItemWrite) project() workflow.Project { return w.plan.project(0) }

// failure is nil: a project's failure is in the report, with the others'.
func (w bulkItemWrite) failure() error { return nil }

// changed: a project screen showing it takes the new settings, or reads
// again what the change may have touched.
func (w bulkItemWrite) changed() changes {
	switch w.plan.kind {
	case bulkRotate:
		return changes{stale: true}
	case bulkEnable, bulkDisable:
		it := w.plan.settings.Items[0]
		if it.Result != workflow.ResultChanged && it.Result != workflow.ResultFailed {
			return changes{}
		}
		// A create makes the first client key; a lost answer may have
		// changed anything.
		c := changes{settings: it.Settings, stale: it.Creates()}
		if it.Settings == nil {
			c.settingsStale, c.stale = true, true
		}
		return c
	}
	return changes{}
}

func (w bulkItemWrite) pending() string {
	d := w.plan.kind.doing(w.plan.variable)
	return "a change to marked projects (" + strings.ToLower(d[:1]) + d[1:] + ") was under way in " + w.project().Name()
}

// conflicts keeps the user's own change to a project off it while a bulk
// change is at it.
func (w bulkItemWrite) conflicts(o write) bool {
	p := w.project()
	switch o := o.(type) {
	case rotationWrite:
		return sameProject(o.r.Project, p)
	case settingsWrite:
		return sameProject(o.proj, p)
	case createKeyWrite:
		return sameProject(o.proj, p)
	}
	return false
}

func (w bulkItemWrite) run(ctx context.Context, api API, d Deps) write {
	w.plan = w.plan.run(ctx, api, d, w.journal)
	return w
}

// outcome hands the project's result to the run under way (bulkItemDone).
func (w bulkItemWrite) outcome(voice) outcome { return outcome{bulkItemDoneMsg{w}} }

// bulkItemDoneMsg is one project's end of a bulk change, for the root.
type bulkItemDoneMsg struct{ w bulkItemWrite }

// bulkItemDone records the project's result, says how far the run is, and
// starts the next project.
func (m Model) bulkItemDone(w bulkItemWrite) (Model, tea.Cmd) {
	r := m.sh.bulk
	if r == nil || r.id != w.runID {
		return m, nil
	}
	r.plan.set(w.i, w.plan)
	r.running--
	r.done++
	kind := statusInfo
	if w.plan.result(0) == workflow.ResultFailed {
		kind = statusError
	}
	text := fmt.Sprintf("%s %d/%d: %s %s", r.plan.kind.progress(), r.done, r.plan.acting(), w.project().Name(), w.plan.result(0))
	next, status := m.setStatus(statusMsg{text: text, kind: kind})
	next, more := next.bulkMore()
	return next, tea.Batch(status, more)
}
