package rotation

import (
	"fmt"
	"strings"

	"github.com/errtrack/errtrack/internal/keystore"
	"github.com/errtrack/errtrack/internal/ledger"
)

// What is left to do for a rotation or migration the ledger holds open,
// and which earlier run made the key a rotation goes on with, in words.

// LeftToDo says what an unfinished rotation still needs, for the ledger's
// readers: "delete key 6 once its clients use key 7's DSN"; c words the
// checks and steps as the reader's front end does them.
func LeftToDo(r ledger.Record, c Checks) string {
	if !r.IsOpen() {
		return ""
	}
	if r.Kind == ledger.KindMigration {
		return migrationLeftToDo(r, c)
	}
	old, nk := keystore.KeyName(OldKeyOf(r)), keystore.KeyName(NewKeyOf(r))
	switch r.Phase {
	case ledger.PhaseCreating:
		return fmt.Sprintf("find out whether the create made a key (%s), then rotate key %s again: it goes on with that key", c.Keys, old)
	case ledger.PhaseDisabled:
		return fmt.Sprintf("delete key %s, disabled, once its clients use key %s's DSN (rotate key %s again, or delete it)", old, nk, old)
	}
	var pending []string
	for _, v := range r.Variables {
		if v.Result != "updated" && v.Result != "created" && v.Group == "" {
			pending = append(pending, VariableRefLabel(v))
		}
	}
	if len(pending) > 0 {
		return fmt.Sprintf("point %s at key %s's DSN, then delete key %s (rotate key %s again: it goes on with key %s)",
			strings.Join(pending, ", "), nk, old, old, nk)
	}
	return fmt.Sprintf("delete key %s once its clients use key %s's DSN (rotate key %s again, or delete it)", old, nk, old)
}

// migrationLeftToDo says what an unfinished migration still needs.
func migrationLeftToDo(r ledger.Record, c Checks) string {
	switch r.Phase {
	case ledger.PhaseProjectCreating:
		return "find out whether the Sentry project " + r.Target + " was made, then run the migration again: it takes it, and makes none twice"
	case ledger.PhaseMigrated:
		return "delete the integrated keys once their clients send to the Sentry DSN: " + c.OldKeysStep
	}
	return "run the migration again: it goes on where it stopped"
}

// EarlierWords say which unfinished rotation made the key a rotation goes
// on with: "Key 8 was made by an unfinished rotation of key 6 on
// 2026-11-26 12:04 (by alice, keys rotate --group)."
func EarlierWords(rec ledger.Record) string {
	who := rec.FrontEnd
	if rec.User != "" {
		who = "by " + rec.User + ", " + who
	}
	return fmt.Sprintf("Key %s was made by an unfinished rotation of key %s on %s (%s).",
		keystore.KeyName(NewKeyOf(rec)), keystore.KeyName(OldKeyOf(rec)), rec.Started.Local().Format("2006-01-02 15:04"), who)
}
