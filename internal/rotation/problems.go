package rotation

import (
	"errors"
	"fmt"
	"strings"

	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/wording"
)

// ProblemWords say, in a front end's words, what a problem's fix asks:
// the words around them name no front end.
type ProblemWords struct {
	// Again runs the rotation again where the user is ("run the command
	// again", "mark them and run it again").
	Again string
	// Keys shows the keys of the record's project; Restart leaves its
	// unfinished rotation and makes one new key.
	Keys, Restart func(ledger.Record) string
}

// Problem words the errors of the rotation ledger and of rotations that
// meet one another, for both front ends: what is wrong and what to do, in
// w's words. ok is false for errors that are not these.
func Problem(err error, w ProblemWords) (string, bool) {
	again := w.Again
	var le *LedgerError
	var bad *ledger.CorruptError
	var ro *ledger.UnwritableError
	var busy *BusyError
	var meanwhile *MadeMeanwhileError
	var unknown *UnknownCreateError
	var moved *VariableMovedError
	switch {
	case errors.As(err, &bad):
		return fmt.Sprintf("The rotation ledger %s is damaged at line %d, so errtrack cannot tell which rotations are unfinished. Move it aside (mv '%s' '%s.damaged') and try again: errtrack starts a new ledger, and the old one stays readable by hand. Nothing was changed.",
			bad.Path, bad.Line, bad.Path, bad.Path), true
	case errors.As(err, &ro):
		return fmt.Sprintf("errtrack's state directory %s cannot be written (%v), and every rotation is written in its ledger before it changes anything. Make it writable, or point ERRTRACK_STATE_DIR at a folder that is. Nothing was changed.",
			ro.Dir, ro.Err), true
	case errors.As(err, &le):
		return wording.Capitalize(wording.Sentence(le.Error())), true
	case errors.As(err, &busy):
		return wording.Capitalize(busy.Error()) + ": wait for it to end, then " + again + " (it goes on with the key that run makes). Nothing was changed.", true
	case errors.As(err, &meanwhile):
		return wording.Capitalize(meanwhile.Error()) + ": nothing was created; " + again + " to go on with it.", true
	case errors.As(err, &unknown):
		ids := unknown.Candidates
		cands := "no key can be told apart"
		if len(ids) > 0 {
			cands = "keys " + strings.Join(ids, ", ") + " were made since"
		}
		return fmt.Sprintf("%s (%s). Check the project's keys (%s), delete any that nothing uses, then restart the rotation (%s) to make one new key. Nothing was changed.",
			wording.Capitalize(unknown.Error()), cands, w.Keys(unknown.Record), w.Restart(unknown.Record)), true
	case errors.As(err, &moved):
		return wording.Capitalize(wording.Sentence(moved.Error())) + " The old key is kept; check the variable, then " + again + ": it goes on with the new key.", true
	}
	return "", false
}
