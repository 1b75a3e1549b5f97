package main

import (
	"strings"
	"testing"

	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/rotation"
)

// A lost create the keys cannot resolve is fixed with command lines the
// user can paste, the old key named (a Sentry key by its public key), and
// no console key.
func TestUnknownCreateNamesCommandLines(t *testing.T) {
	for _, c := range []struct {
		rec  ledger.Record
		want string
	}{
		{ledger.Record{ProjectID: 7, OldKeyID: 901}, "restart the rotation (errtrack keys rotate -p 7 --old 901 --restart)"},
		{ledger.Record{ProjectID: 3, OldPublic: "0123456789ab"}, "restart the rotation (errtrack keys rotate -p 3 --old 0123456789ab --restart)"},
	} {
		w, ok := rotation.Problem(&rotation.UnknownCreateError{Record: c.rec}, cliProblems("run the command again"))
		if !ok || !strings.Contains(w, c.want) || !strings.Contains(w, "Check the project's keys (errtrack keys list -p ") || strings.Contains(w, "console") {
			t.Errorf("%+v: %s", c.rec, w)
		}
	}
}
