package rotation

// The user's answers to a rotation's questions, each a new Rotation: what
// the variables get, go on or restart, delete or keep, verify, stop.

import "slices"

// VariablesInQuestion: some variable holds the old DSN, or none could be
// read, so deleting the old key may break a deploy.
func (r Rotation) VariablesInQuestion() bool {
	return r.VariablesErr != nil || slices.ContainsFunc(r.Variables, func(v VariableTarget) bool { return v.HoldsOld && !v.selected && !v.Outside })
}

// UpdateVariables answers the variables question: point them at the new DSN.
func (r Rotation) UpdateVariables() Rotation {
	if r.VariablesErr != nil {
		return r
	}
	r.variables = decidedUpdate
	r.Variables = slices.Clone(r.Variables)
	for i := range r.Variables {
		if r.Variables[i].HoldsOld && !r.Variables[i].Outside {
			r.Variables[i].selected = true
		}
	}
	return r
}

// GoOn answers the resume question: go on with the key the unfinished
// rotation made.
func (r Rotation) GoOn() Rotation {
	r.resume = decidedUpdate
	return r.goOn()
}

// goOn takes the earlier rotation's key and record as this rotation's.
func (r Rotation) goOn() Rotation {
	if r.Earlier == nil || !Made(*r.Earlier) {
		return r
	}
	k := NewKeyOf(*r.Earlier)
	r.New = &k
	r.rec = *r.Earlier
	return r
}

// Restart answers the resume question: leave the key the unfinished
// rotation made as it is, and make a new one (the ledger then says the
// earlier rotation was abandoned and names its key).
func (r Rotation) Restart() Rotation {
	r.resume = decidedKeep
	return r
}

// GoingOn reports a rotation going on with an earlier one's key.
func (r Rotation) GoingOn() bool { return r.Earlier != nil && r.resume == decidedUpdate }

// KeepVariables answers the variables question: leave them as they are.
// The old key can then still be deleted, once the user confirms knowing it.
func (r Rotation) KeepVariables() Rotation {
	r.variables = decidedKeep
	return r
}

// ConfirmDelete answers the delete question; no keeps the old key and ends
// the rotation.
func (r Rotation) ConfirmDelete(yes bool) Rotation {
	if yes {
		r.confirmed, r.groupUsesSeen = true, true
	} else {
		r.stopped = true
	}
	return r
}

// WantVerify asks for a test event before the delete (the console's v at
// the delete question).
func (r Rotation) WantVerify() Rotation {
	r.opts.Verify = true
	return r
}

// Stop ends the rotation where it stands (a question that cannot be
// asked); the old key stays.
func (r Rotation) Stop() Rotation {
	r.stopped = true
	return r
}

// Kept reports a rotation that ended with both keys.
func (r Rotation) Kept() bool { return r.New != nil && r.stopped && !r.Deleted && !r.NewGone }

// VariablesDecided reports that the user chose what to do with the variables.
func (r Rotation) VariablesDecided() bool { return r.variables != undecided }

// VariablesKept reports that the user chose to leave the variables as they are.
func (r Rotation) VariablesKept() bool { return r.variables == decidedKeep }

// Soft reports a rotation that disables the old key instead of deleting it.
func (r Rotation) Soft() bool { return r.opts.Soft }
