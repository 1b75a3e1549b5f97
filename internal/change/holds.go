package change

import "github.com/errtrack/errtrack/internal/keystore"

// A change holds parts of a project while it runs: its key creation, one
// of its keys, its CI/CD variables, its settings. Two changes whose holds
// meet must not run at once (two rotations of one key would make two new
// keys; a delete during a rotation could take the key it checks), so a
// front end starts a change only when none under way holds what it needs,
// whichever came first.

// Hold is one part of a project a change holds.
type Hold struct {
	Project int64
	What    string
}

// The parts of a project a change can hold.
const (
	HoldCreate    = "key creation"
	HoldVariables = "CI/CD variables"
	HoldSettings  = "settings"
	HoldEvent     = "test event"
)

// HoldKey is one key, by its ref (KeyRef).
func HoldKey(ref string) string { return "key " + ref }

// Meet reports holds that two changes cannot both have.
func Meet(a, b []Hold) (Hold, bool) {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return x, true
			}
		}
	}
	return Hold{}, false
}

// Holds is what item i of the plan holds while it runs (nothing for an
// item it leaves alone).
func (p Plan) Holds(i int) []Hold {
	it := p.Items[i]
	if !it.Acts() || p.Kind == nil {
		return nil
	}
	return p.Kind.Holds(it)
}

func (k RotateChange) Holds(it Item) []Hold {
	h := []Hold{{it.Project.ID, HoldCreate}, {it.Project.ID, HoldVariables}}
	if r := it.rotation().Rotation; r != nil {
		h = append(h, Hold{it.Project.ID, HoldKey(keystore.KeyRef(r.Old))})
	}
	return h
}

func (k SettingsChange) Holds(it Item) []Hold { return []Hold{{it.Project.ID, HoldSettings}} }

func (k VerifyChange) Holds(it Item) []Hold {
	return []Hold{{it.Project.ID, HoldEvent}}
}
