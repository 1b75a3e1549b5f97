package migrate

import (
	"strings"

	"github.com/errtrack/errtrack/internal/change"
)

// Columns are a migration's plan row: its Sentry project, the variables
// it moves, and what becomes of integrated error tracking.
func (k MigrateChange) Columns(it change.Item) change.Columns {
	m := plannedMigration(it)
	if m == nil || k.DeleteOldKeys {
		return change.Columns{}
	}
	c := change.Columns{Target: TargetName(m.target)}
	if !m.exists {
		c.Target += " (new)"
	}
	var names []string
	for _, t := range m.targets {
		names = append(names, t.Key)
	}
	switch {
	case len(names) > 0:
		c.Changes = strings.Join(names, ", ") + " → Sentry DSN"
	case len(m.rec.Variables) > 0:
		c.Changes = "variables moved before"
	default:
		c.Changes = "no variable"
	}
	switch {
	case m.holdsOn() != "":
		c.Then = "integrated kept on (unread)"
	case k.KeepIntegrated:
		c.Then = "integrated kept on"
	default:
		c.Then = "integrated off"
	}
	return c
}
