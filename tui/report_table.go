package tui

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/errtrack/errtrack/internal/workflow"
)

// reportRow is one project's row of a plan or a report of a change to
// several projects: its result ("planned" before the run), the project,
// and what was or will be done there, or why not.
type reportRow struct{ result, project, what string }

// The table's columns: the result (as wide as the longest result shown),
// the project (up to maxProject), and what, which wraps under itself.
const maxProject = 32

// reportTable draws rows as a table in width cells: a header, each result
// in its state's colour (the word says it too), what wraps under itself.
func reportTable(st Styles, rows []reportRow, width int) []string {
	projW, resultColumn := len("PROJECT"), len("RESULT")
	for _, r := range rows {
		projW = max(projW, lipgloss.Width(r.project))
		resultColumn = max(resultColumn, lipgloss.Width(r.result))
	}
	projW = min(projW, maxProject, max(width/3, 8))
	whatAt := resultColumn + 2 + projW + 2
	whatW := max(width-whatAt, 10)
	h := st.Header.Render
	lines := []string{h("RESULT") + strings.Repeat(" ", resultColumn+2-6) + h("PROJECT") + strings.Repeat(" ", max(projW+2-7, 2)) + h("WHAT")}
	for _, r := range rows {
		what := wrap(r.what, whatW)
		if len(what) == 0 {
			what = []string{""}
		}
		head := resultStyle(st, r.result).Render(pad(r.result, resultColumn)) + "  " + pad(r.project, projW) + "  "
		lines = append(lines, head+what[0])
		for _, l := range what[1:] {
			lines = append(lines, strings.Repeat(" ", whatAt)+l)
		}
	}
	return lines
}

// resultStyle colours a result: changed and ok as on, failed as bad,
// skipped faint, unchanged as not set up, planned in the accent.
func resultStyle(st Styles, result string) lipgloss.Style {
	switch result {
	case workflow.ResultChanged, "ok":
		return st.StateOn
	case workflow.ResultFailed:
		return st.StateBad
	case workflow.ResultSkipped:
		return st.Subtle
	case workflow.ResultUnchanged:
		return st.StateNone
	}
	return st.Info
}
