package tui

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/explain"
	"github.com/errtrack/errtrack/internal/workflow"
)

// A bulk change acts on the projects marked on the list with the group
// plans of the commands (never a second implementation): it plans, asks
// once with the plan, then runs a few projects per step, saying how far it
// is wherever the user is, and ends with a report the user can reopen.

type bulkKind int

const (
	bulkEnable bulkKind = iota
	bulkDisable
	bulkRotate
	bulkVerify
)

// bulkVariable is the CI/CD variable whose DSN a console rotation or test
// event uses, as the commands' default.
const bulkVariable = "SENTRY_DSN"

func (k bulkKind) doing() string {
	return [...]string{"Enabling error tracking", "Disabling error tracking", "Rotating the keys " + bulkVariable + " holds", "Sending test events"}[k]
}

// bulkWrite is one step of a bulk change: the plan (ran false), or the
// next few projects of the run.
type bulkWrite struct {
	kind     bulkKind
	projects []apiclient.Project
	planned  bool
	approved bool
	next     int // the next item to run

	settings workflow.SettingsPlan
	rotation workflow.GroupPlan
	verify   workflow.VerifyPlan
	err      error
}

// bulkStep is how many projects a step runs: the plans' own concurrency.
const bulkStep = 3

func (w bulkWrite) project() workflow.Project { return workflow.Project{} }
func (w bulkWrite) failure() error            { return w.err }
func (w bulkWrite) changed() changes          { return changes{} }
func (w bulkWrite) pending() string {
	return fmt.Sprintf("%s in %d marked projects (%d done) was under way", strings.ToLower(w.kind.doing()[:1])+w.kind.doing()[1:], len(w.projects), w.next)
}

func (w bulkWrite) conflicts(o write) bool {
	_, ok := o.(bulkWrite)
	return ok
}

func (w bulkWrite) size() int {
	switch w.kind {
	case bulkRotate:
		return len(w.rotation.Items)
	case bulkVerify:
		return len(w.verify.Items)
	}
	return len(w.settings.Items)
}

func (w bulkWrite) journal(d Deps) *workflow.Journal {
	if d.GroupJournal == nil {
		return nil
	}
	j, err := d.GroupJournal(d.Host, bulkVariable)
	if err != nil {
		return nil
	}
	return j
}

func (w bulkWrite) run(ctx context.Context, api API, d Deps) write {
	if !w.planned {
		switch w.kind {
		case bulkEnable, bulkDisable:
			w.settings = workflow.PlanSettingsFor(ctx, api, w.projects, w.kind == bulkEnable)
		case bulkRotate:
			w.rotation = workflow.PlanRotationFor(ctx, api, w.projects, workflow.GroupOptions{Variable: bulkVariable}, w.journal(d))
		case bulkVerify:
			w.verify = workflow.PlanVerifyFor(ctx, api, w.projects, bulkVariable, "")
		}
		w.planned = true
		return w
	}
	end := min(w.next+bulkStep, w.size())
	switch w.kind {
	case bulkEnable, bulkDisable:
		part := w.settings
		part.Items = w.settings.Items[w.next:end]
		done := part.Run(ctx, api, nil)
		w.settings.Items = append(append(append([]workflow.SettingsItem(nil), w.settings.Items[:w.next]...), done.Items...), w.settings.Items[end:]...)
	case bulkRotate:
		part := w.rotation
		part.Items = w.rotation.Items[w.next:end]
		keys, _ := DefaultKeyMap().Rebind(d.Keys)
		words := func(err error) string {
			return explain.Error(err, explain.Context{Host: d.Host, Retry: "run it again", Login: "log in again", TokenEnv: d.TokenEnv})
		}
		done := part.Run(ctx, api, w.journal(d), words, func(workflow.Project) workflow.Checks { return consoleChecks(keys) }, func(it workflow.GroupItem) {
			if r := it.Rotation; r.New != nil {
				d.keyCreated(it.Project, r.New.ID)
			}
		})
		w.rotation.Items = append(append(append([]workflow.GroupItem(nil), w.rotation.Items[:w.next]...), done.Items...), w.rotation.Items[end:]...)
	case bulkVerify:
		part := w.verify
		part.Items = w.verify.Items[w.next:end]
		done := part.Run(ctx, api, nil)
		w.verify.Items = append(append(append([]workflow.VerifyItem(nil), w.verify.Items[:w.next]...), done.Items...), w.verify.Items[end:]...)
	}
	w.next = end
	return w
}

// lines are the plan or the report, one line per project.
func (w bulkWrite) lines(explain func(error) string) []string {
	var out []string
	add := func(p workflow.Project, result, what string) {
		if result == "" {
			result = "planned"
		}
		out = append(out, fmt.Sprintf("%-9s %s: %s", result, clean(p.Name()), clean(what)))
	}
	switch w.kind {
	case bulkEnable, bulkDisable:
		for _, it := range w.settings.Items {
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
		for _, it := range w.rotation.Items {
			what := it.Action()
			if it.Skip != "" {
				what = it.Skip // the result word says skipped
			}
			if it.Words != "" {
				what = it.Words
			}
			add(it.Project, it.Result, what)
		}
	case bulkVerify:
		for _, it := range w.verify.Items {
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
	return out
}

func (w bulkWrite) acting() int {
	switch w.kind {
	case bulkRotate:
		return w.rotation.Acting()
	case bulkVerify:
		return w.verify.Acting()
	}
	return w.settings.Acting()
}

func (w bulkWrite) failed() int {
	switch w.kind {
	case bulkRotate:
		return w.rotation.Failed()
	case bulkVerify:
		return w.verify.Failed()
	}
	return w.settings.Failed()
}

func (w bulkWrite) outcome(m Model) (Model, tea.Cmd) {
	n := len(w.projects)
	switch {
	case !w.approved && w.acting() == 0:
		d := infoDialog(fmt.Sprintf("%s: nothing to do in the %d marked projects", w.kind.doing(), n), w.lines(m.sh.explain))
		return m, msgCmd(openDialogMsg{d: d, async: true})
	case !w.approved:
		body := append(w.lines(m.sh.explain), "")
		if w.kind == bulkVerify {
			body = append(body, workflow.VerifyWarning)
		}
		if w.kind == bulkRotate {
			body = append(body, "Each rotation is the single rotation's plan: the new key is checked before "+bulkVariable+" points at it and the old key goes; a group variable holding an old DSN keeps its old key.")
		}
		next := w
		next.approved = true
		d := confirmDialog(fmt.Sprintf("%s in %d of %d marked projects?", w.kind.doing(), w.acting(), n), body, "Go", startWriteMsg{next})
		return m, msgCmd(openDialogMsg{d: d, async: true})
	case w.next < w.size():
		next, status := m.setStatus(statusMsg{text: fmt.Sprintf("%s: %d of %d projects done…", w.kind.doing(), w.next, w.size()), kind: statusInfo})
		return next, tea.Batch(status, msgCmd(startWriteMsg{w}))
	}
	title := fmt.Sprintf("%s: done in %d projects", w.kind.doing(), w.acting())
	kind := statusSuccess
	if f := w.failed(); f > 0 {
		title = fmt.Sprintf("%s: %d of %d projects failed", w.kind.doing(), f, n)
		kind = statusError
	}
	m.sh.lastBulk = infoDialog(title, w.lines(m.sh.explain))
	m.sh.hasBulk = true
	next, status := m.setStatus(statusMsg{text: title + " (" + keyName(m.sh.keys.Bulk) + " on the projects list shows the report).", kind: kind})
	return next, tea.Batch(status, msgCmd(openDialogMsg{d: m.sh.lastBulk, async: true}))
}
