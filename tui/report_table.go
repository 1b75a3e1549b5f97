package tui

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/errtrack/errtrack/internal/change"
)

// reportRow is one project's row of a plan or a report of a change to
// several projects: its result ("planned" before the run), the project,
// and what was or will be done there, or why not; cols are the plan's
// row in short (where, what changes, then), what its details (enter).
type reportRow struct {
	result, project, what string
	cols                  change.Columns
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
	l := layoutTable(rows, width)
	lines = []string{truncate(l.head(st), width)}
	for i, r := range rows {
		starts = append(starts, len(lines))
		lines = append(lines, l.row(st, r, i+1 == sel)...)
	}
	return lines, starts
}

// tableLayout is where a table's columns stand at a width: laid out once,
// its rows drawn one by one (a selection draws its row again, not the
// whole table).
type tableLayout struct {
	width, resultColumn, projW, whatAt, whatW int
	colW                                      [3]int
	withCols                                  bool
}

func layoutTable(rows []reportRow, width int) tableLayout {
	l := tableLayout{width: width, resultColumn: len("RESULT"), projW: len("PROJECT"), colW: [3]int{len("TARGET"), len("CHANGES"), len("THEN")}}
	for _, r := range rows {
		l.projW = max(l.projW, lipgloss.Width(r.project))
		l.resultColumn = max(l.resultColumn, lipgloss.Width(r.result))
		if r.cols.Target != "" {
			l.withCols = true
			for i, c := range []string{r.cols.Target, r.cols.Changes, r.cols.Then} {
				l.colW[i] = max(l.colW[i], lipgloss.Width(c))
			}
		}
	}
	l.projW = min(l.projW, maxProject, max(width/3, 8))
	l.whatAt = l.resultColumn + 2 + l.projW + 2
	l.whatW = max(width-l.whatAt, 10)
	// The plan's columns share what is left, the widest giving way first.
	colW := &l.colW
	for colW[0]+colW[1]+colW[2]+4 > l.whatW && max(colW[0], colW[1], colW[2]) > 6 {
		i := 0
		for j := range colW {
			if colW[j] > colW[i] {
				i = j
			}
		}
		colW[i]--
	}
	return l
}

func (l tableLayout) head(st Styles) string {
	h := st.Header.Render
	head := h("RESULT") + strings.Repeat(" ", l.resultColumn+2-6) + h("PROJECT") + strings.Repeat(" ", max(l.projW+2-7, 2))
	if l.withCols {
		return head + h("TARGET") + strings.Repeat(" ", l.colW[0]+2-6) + h("CHANGES") + strings.Repeat(" ", l.colW[1]+2-7) + h("THEN")
	}
	return head + h("WHAT")
}

// row is r's line, never wider than the box (it would wrap).
func (l tableLayout) row(st Styles, r reportRow, selected bool) []string {
	var what string
	switch {
	case r.cols.Target != "":
		what = pad(r.cols.Target, l.colW[0]) + "  " + pad(r.cols.Changes, l.colW[1]) + "  " + truncate(r.cols.Then, l.colW[2])
	default:
		// One line a project: its first sentence, cut to fit; enter
		// shows the row whole.
		what = truncate(firstSentence(r.what), l.whatW)
	}
	result := resultStyle(st, r.result).Render(pad(r.result, l.resultColumn))
	if selected {
		result = st.Selected.Render(pad(r.result, l.resultColumn))
	}
	return []string{truncate(result+"  "+pad(r.project, l.projW)+"  "+what, l.width)}
}

// resultStyle colours a result: changed and ok as on, failed as bad,
// skipped faint, unchanged as not set up, planned in the accent.
func resultStyle(st Styles, result string) lipgloss.Style {
	switch result {
	case change.ResultChanged, "ok":
		return st.StateOn
	case change.ResultFailed:
		return st.StateBad
	case change.ResultSkipped:
		return st.Subtle
	case change.ResultUnchanged:
		return st.StateNone
	}
	return st.Info
}
