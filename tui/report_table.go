package tui

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/errtrack/errtrack/internal/workflow"
)

// reportRow is one project's row of a plan or a report of a change to
// several projects: its result ("planned" before the run), the project,
// and what was or will be done there, or why not; cols are the plan's
// row in short (where, what changes, then), what its details (enter).
type reportRow struct {
	result, project, what string
	cols                  workflow.Columns
}

// The table's columns: the result (as wide as the longest result shown),
// the project (up to maxProject), then the plan's columns, or what.
const maxProject = 32

// firstSentence is s up to its first full stop followed by a space.
func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i > 0 {
		return s[:i+1]
	}
	return s
}

// reportTable draws rows as a table in width cells: a header, each result
// in its state's colour (the word says it too), one line a project, cut
// where it does not fit (enter shows one whole). sel (1-based, 0 none) is
// drawn selected. starts are each row's first line.
func reportTable(st Styles, rows []reportRow, width, sel int) (lines []string, starts []int) {
	projW, resultColumn := len("PROJECT"), len("RESULT")
	colW := []int{len("TARGET"), len("CHANGES"), len("THEN")}
	withCols := false
	for _, r := range rows {
		projW = max(projW, lipgloss.Width(r.project))
		resultColumn = max(resultColumn, lipgloss.Width(r.result))
		if r.cols.Target != "" {
			withCols = true
			for i, c := range []string{r.cols.Target, r.cols.Changes, r.cols.Then} {
				colW[i] = max(colW[i], lipgloss.Width(c))
			}
		}
	}
	projW = min(projW, maxProject, max(width/3, 8))
	whatAt := resultColumn + 2 + projW + 2
	whatW := max(width-whatAt, 10)
	// The plan's columns share what is left, the widest giving way first.
	for colW[0]+colW[1]+colW[2]+4 > whatW && max(colW[0], colW[1], colW[2]) > 6 {
		i := 0
		for j := range colW {
			if colW[j] > colW[i] {
				i = j
			}
		}
		colW[i]--
	}
	h := st.Header.Render
	head := h("RESULT") + strings.Repeat(" ", resultColumn+2-6) + h("PROJECT") + strings.Repeat(" ", max(projW+2-7, 2))
	if withCols {
		head += h("TARGET") + strings.Repeat(" ", colW[0]+2-6) + h("CHANGES") + strings.Repeat(" ", colW[1]+2-7) + h("THEN")
	} else {
		head += h("WHAT")
	}
	lines = []string{head}
	for i, r := range rows {
		starts = append(starts, len(lines))
		var what []string
		switch {
		case r.cols.Target != "":
			what = []string{pad(r.cols.Target, colW[0]) + "  " + pad(r.cols.Changes, colW[1]) + "  " + truncate(r.cols.Then, colW[2])}
		default:
			// One line a project: its first sentence, cut to fit; enter
			// shows the row whole.
			what = []string{truncate(firstSentence(r.what), whatW)}
		}
		if len(what) == 0 {
			what = []string{""}
		}
		result := resultStyle(st, r.result).Render(pad(r.result, resultColumn))
		if i+1 == sel {
			result = st.Selected.Render(pad(r.result, resultColumn))
		}
		lines = append(lines, result+"  "+pad(r.project, projW)+"  "+what[0])
		for _, l := range what[1:] {
			lines = append(lines, strings.Repeat(" ", whatAt)+l)
		}
	}
	for i, l := range lines {
		lines[i] = truncate(l, width) // never wider than the box: it would wrap
	}
	return lines, starts
}

// rowDetails is one row whole: enter on a plan's or report's row.
func rowDetails(r reportRow) dialog {
	var body []string
	if r.cols.Target != "" {
		body = append(body, "Target:   "+r.cols.Target, "Changes:  "+r.cols.Changes, "Then:     "+r.cols.Then, "")
	}
	return infoDialog(r.project+": "+r.result, append(body, r.what))
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
