package main

import (
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/term"
)

// outputWidth is the width a table on stdout should fit: COLUMNS when set,
// else the terminal's, else 0 (a pipe or a file: no limit, for scripts).
func (a *app) outputWidth() int {
	if n, err := strconv.Atoi(strings.TrimSpace(a.getenv("COLUMNS"))); err == nil && n > 0 {
		return n
	}
	if f, ok := a.stdout.(*os.File); ok && term.IsTerminal(f.Fd()) {
		if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
			return w
		}
	}
	return 0
}

// tableGap is the space newTable puts between columns.
const tableGap = 2

// minCell is the narrowest a cut column gets: enough to tell values apart.
const minCell = 8

// fitStep is one way to narrow a table: leave out column drop, or cut the
// columns in cut (widest first) down to minCell.
type fitStep struct {
	drop int
	cut  []int
}

func dropColumn(i int) fitStep    { return fitStep{drop: i} }
func cutColumns(i ...int) fitStep { return fitStep{drop: -1, cut: i} }

// fitColumns makes a table (its header the first row) fit width columns,
// taking the steps in order while it is too wide, then cutting any column.
// A cut cell ends with "…". It reports whether anything was left out or
// cut, so the caller can say how to see it whole. width 0 is no limit.
func fitColumns(rows [][]string, width int, steps []fitStep) ([][]string, bool) {
	if width <= 0 || len(rows) == 0 {
		return rows, false
	}
	n := len(rows[0])
	keep := make([]bool, n)
	all := make([]int, n)
	for i := range keep {
		keep[i], all[i] = true, i
	}
	widths := make([]int, n)
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	total := func() int {
		t, shown := 0, 0
		for i, w := range widths {
			if keep[i] {
				t += w
				shown++
			}
		}
		return t + tableGap*max(shown-1, 0)
	}
	changed := false
	for _, st := range append(steps, cutColumns(all...)) {
		if st.drop >= 0 && total() > width {
			keep[st.drop], changed = false, true
		}
		for total() > width {
			widest := -1
			for _, i := range st.cut {
				if keep[i] && widths[i] > minCell && (widest < 0 || widths[i] > widths[widest]) {
					widest = i
				}
			}
			if widest < 0 {
				break // as narrow as these columns go
			}
			widths[widest]--
			changed = true
		}
	}
	out := make([][]string, len(rows))
	for j, r := range rows {
		for i, c := range r {
			if !keep[i] {
				continue
			}
			if utf8.RuneCountInString(c) > widths[i] {
				c = string([]rune(c)[:widths[i]-1]) + "…"
			}
			out[j] = append(out[j], c)
		}
	}
	return out, changed
}
