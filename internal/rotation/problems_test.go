package rotation

import (
	"fmt"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/internal/ledger"
)

// The words of a lost create the keys cannot resolve name the front
// end's own ways to see the keys and to restart, and no other front end's.
func TestUnknownCreateNamesTheFrontEndsWays(t *testing.T) {
	ways := ProblemWords{Again: "again",
		Keys:    func(r ledger.Record) string { return fmt.Sprintf("<keys of %d>", r.ProjectID) },
		Restart: func(r ledger.Record) string { return fmt.Sprintf("<restart of %d>", r.OldKeyID) }}
	w, ok := Problem(&UnknownCreateError{Record: ledger.Record{ProjectID: 7, OldKeyID: 901}, Candidates: []string{"4", "5"}}, ways)
	if !ok || !strings.Contains(w, "(<keys of 7>)") || !strings.Contains(w, "(<restart of 901>)") || strings.Contains(w, "errtrack ") || strings.Contains(w, "console") {
		t.Fatal(w)
	}
}
