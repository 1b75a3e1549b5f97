package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// stopBulkMsg is the user's yes to stopping the run id.
type stopBulkMsg struct{ id uint64 }

// stopBulkQuestion asks before stopping the run under way (the bulk key
// while it runs); No lets it go on.
func stopBulkQuestion(r *bulkRun) dialog {
	w := r.words()
	return confirmDialog(fmt.Sprintf("Stop %s (%d of %d done)?", lowerFirst(w.Doing), r.done, r.plan.Acting()),
		[]string{"The projects under way finish; those not begun are not reached, and the report names them."},
		"Stop", stopBulkMsg{id: r.id})
}

// stopBulk stops the run: its report comes when the projects under way end.
func (m Model) stopBulk(msg stopBulkMsg) (Model, tea.Cmd) {
	r := m.sh.bulk
	if r == nil || r.id != msg.id {
		return m, nil
	}
	r.stopped.Store(true)
	return m.setStatus(statusMsg{text: r.words().Doing + ": stopping once the projects under way end…", kind: statusInfo})
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
