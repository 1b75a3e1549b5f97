package tui

import (
	"errors"
	"slices"
	"strings"

	"github.com/errtrack/errtrack/internal/change"
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/migrate"
	"github.com/errtrack/errtrack/internal/rotation"
	"github.com/errtrack/errtrack/internal/wording"
)

// What a bulk change says of each project: the plan's and the report's
// rows, the words for one project's end, what the screens showing it
// update, and the note on quitting during a run.

// bulkRows are the plan or the report, one row per project: its result
// and what was or will be done, or why not; what needs the user first.
func (m Model) bulkRows(p change.Plan) []reportRow {
	var out []reportRow
	for _, it := range p.Items {
		result := it.Result
		if result == "" {
			result = change.ResultPlanned
		}
		row := reportRow{result: result, project: clean(it.Project.Name()), what: clean(m.bulkWords(it))}
		if result == change.ResultPlanned {
			c := p.Columns(it)
			row.cols = change.Columns{Target: clean(c.Target), Changes: clean(c.Changes), Then: clean(c.Then)}
		}
		out = append(out, row)
	}
	slices.SortStableFunc(out, func(a, b reportRow) int { return bulkRank(a.result) - bulkRank(b.result) })
	return out
}

// bulkRank orders a report: failures and unfinished first, then changes,
// then what was left alone.
func bulkRank(result string) int {
	switch result {
	case change.ResultFailed, change.ResultUnderWay:
		return 0
	case change.ResultNotReached:
		return 1
	case change.ResultUnchanged:
		return 3
	case change.ResultSkipped:
		return 4
	}
	return 2
}

// bulkWords say what a project's change will do or did, with the key to
// press where the user must act.
func (m Model) bulkWords(it change.Item) string {
	k := m.sh.keys
	var others *change.OtherVariablesError
	var groups *rotation.GroupVariablesError
	switch {
	case errors.As(it.Err, &groups) && madeKey(it):
		r := it.Detail.(change.RotationResult)
		return it.Words + " Point them at the new DSN in the group's Settings > CI/CD > Variables and rotate again, or open the project and press " +
			keyName(k.Rotate) + " on key " + keystore.KeyName(r.Old) + ": it goes on with key " + keystore.KeyName(r.New) + " and its delete question names them."
	case errors.As(it.Err, &groups):
		return it.Skip + ": " + groups.Advice("open the project, "+keyName(k.Rotate)) + ". Nothing was changed here."
	case errors.As(it.Err, &others):
		return it.Skip + ": open the project and rotate it there (" + keyName(k.Rotate) + ") to choose what they get. Nothing was changed here."
	case it.Words != "":
		return it.Words
	case it.Skip != "" && it.Err != nil:
		return it.Skip + ": " + m.bulkExplain(it.Err)
	case it.Skip != "":
		return it.Skip
	}
	return it.Action
}

// bulkChanges are what the screens showing a project a bulk change ended
// update, by the kind of change.
func bulkChanges(it change.Item) changes {
	switch d := it.Detail.(type) {
	case change.RotationResult:
		if d.Rotation != nil && it.Result != change.ResultNotReached {
			return changes{stale: true}
		}
	case change.SettingsResult:
		switch {
		case d.Settings != nil:
			return changes{settings: d.Settings, stale: d.Creates}
		case it.Result == change.ResultFailed:
			return changes{settingsStale: true, stale: true} // the answer may have been lost
		}
	case migrate.MigrationResult:
		// Its variables, keys and settings moved, or may have.
		if it.Acts() && it.Result != change.ResultNotReached {
			return changes{settingsStale: true, stale: true}
		}
	}
	return changes{} // a test event changes nothing
}

// madeKey reports a rotation that made its new key.
func madeKey(it change.Item) bool {
	r, ok := it.Detail.(change.RotationResult)
	return ok && (r.New.ID != 0 || r.New.PublicKey != "")
}

// BulkQuitNote says, when the console ends during a bulk change, which
// marked projects it had changed, failed in, had under way and had not
// reached (nothing was changed there), and how to go on; "" when no bulk
// change is under way.
func (m Model) BulkQuitNote() string {
	r := m.sh.bulk
	if r == nil {
		return ""
	}
	var changed, failed, under, notReached []string
	for i, it := range r.plan.Items {
		switch {
		case !it.Acts() && it.Result != change.ResultFailed:
		case r.running[i]:
			under = append(under, it.Project.Name())
		case it.Result == change.ResultChanged || it.Result == change.ResultOK:
			changed = append(changed, it.Project.Name())
		case it.Result == change.ResultFailed:
			failed = append(failed, it.Project.Name())
		case it.Result == change.ResultUnderWay:
			under = append(under, it.Project.Name())
		default:
			notReached = append(notReached, it.Project.Name())
		}
	}
	w := r.words()
	parts := []string{w.Doing + " was under way when you quit."}
	list := func(names []string) string {
		return wording.Projects(len(names), "") + " (" + strings.Join(names, ", ") + ")"
	}
	if len(changed) > 0 {
		parts = append(parts, "It had changed "+list(changed)+".")
	}
	if len(failed) > 0 {
		parts = append(parts, "It had failed in "+list(failed)+".")
	}
	if len(under) > 0 {
		parts = append(parts, "It was at "+list(under)+": the change there may or may not have been made.")
	}
	if len(notReached) > 0 {
		parts = append(parts, "It had not reached "+list(notReached)+": nothing was changed there.")
	}
	switch {
	case w.Resume != "":
		parts = append(parts, w.Ask+" again in all of them. "+w.Resume)
	case len(notReached)+len(under) > 0:
		parts = append(parts, "Mark the ones not reached and run it again.")
	}
	return strings.Join(parts, " ")
}

// consoleProblems word a rotation's problem for the console: its keys
// where it has them.
func consoleProblems(k KeyMap, again string) rotation.ProblemWords {
	return rotation.ProblemWords{Again: again,
		Keys: func(ledger.Record) string { return "open the project: its Client keys tab lists them" },
		Restart: func(ledger.Record) string {
			return keyName(k.Rotate) + " on the old key, then " + keyName(k.Restart) + " (make a new key) at its question"
		}}
}

// bulkExplain words a bulk change's error: the ledger's and the
// rotations' in the workflow's words, the rest as any error.
func (m Model) bulkExplain(err error) string {
	if w, ok := rotation.Problem(err, consoleProblems(m.sh.keys, "mark them and run it again")); ok {
		return clean(w)
	}
	return m.sh.explain(err)
}
