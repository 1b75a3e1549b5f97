package change

import (
	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/rotation"
)

// Columns are a plan's row in short: where the change goes (the Sentry
// project, the new key), what it changes (the variables) and what then
// becomes of the old (integrated tracking, the old key). The front ends
// draw a plan as a table of them, one line a project, and the item's
// whole words as its details. Empty for a skipped project and a kind
// with no such columns.
type Columns struct{ Target, Changes, Then string }

// Columns is the row of item it of the plan.
func (p Plan) Columns(it Item) Columns {
	if !it.Acts() {
		return Columns{}
	}
	if c, ok := p.Kind.(columner); ok {
		return c.Columns(it)
	}
	return Columns{}
}

// columner is a kind whose plan has such columns.
type columner interface {
	Columns(it Item) Columns
}

func (k RotateChange) Columns(it Item) Columns {
	r := it.rotation().Rotation
	if r == nil {
		return Columns{}
	}
	c := Columns{Target: "new key for " + keystore.KeyName(r.Old), Changes: k.Variable + " → new DSN", Then: "old key deleted"}
	if r.GoingOn() {
		c.Target = "key " + keystore.KeyName(rotation.NewKeyOf(*r.Earlier)) + ", made before"
	}
	switch {
	case len(r.OutsideScope()) > 0:
		c.Then = "old key stays (other scopes hold it)"
	case len(r.GroupUses) > 0:
		c.Then = "old key deleted; group variables keep its DSN"
	}
	return c
}
