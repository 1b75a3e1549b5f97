package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/errtrack/errtrack/internal/ledger"
	"github.com/errtrack/errtrack/internal/rotation"
)

// rotations opens the rotation ledger for host's rotations run from
// frontEnd; close makes its last records durable. Without a ledger a
// rotation does not start: it is what keeps a key from being made twice.
func (a *app) rotations(host, frontEnd string) (*rotation.Rotations, func(), error) {
	store, err := a.openLedger()
	if err != nil {
		return nil, nil, err
	}
	return rotation.NewRotations(store, host, frontEnd), func() { store.Close() }, nil
}

// openLedger opens the state directory's ledger. Its error (a
// *ledgerError) is worded but not printed: a rotation stops on it, a delete
// or an export goes on without the ledger and warns.
func (a *app) openLedger() (*ledger.Ledger, error) {
	dir, err := a.stateDir()
	if err != nil {
		return nil, &ledgerError{words: fmt.Sprintf("errtrack has no state directory for its rotation ledger (%s): set ERRTRACK_STATE_DIR to a folder it may write.", err), err: err}
	}
	store, err := ledger.OpenLedger(dir)
	if err != nil {
		if words, ok := rotation.Problem(err, cliProblems("run the command again")); ok {
			return nil, &ledgerError{words: words, err: err}
		}
		return nil, &ledgerError{words: fmt.Sprintf("The rotation ledger in %s could not be opened (%s).", dir, err), err: err}
	}
	return store, nil
}

// consoleLedger is the console's ledger: the state directory's, or for the
// demo a fresh one removed when it ends (the mock's keys end with it).
func (a *app) consoleLedger(host string, demo bool) (*rotation.Rotations, func(), error) {
	if !demo {
		return a.rotations(host, rotation.FrontEndConsole)
	}
	dir, err := os.MkdirTemp("", "errtrack-demo-state-")
	if err != nil {
		return nil, nil, err
	}
	store, err := ledger.OpenLedger(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	return rotation.NewRotations(store, host, rotation.FrontEndConsole), func() { store.Close(); os.RemoveAll(dir) }, nil
}

// stateDir is where errtrack keeps its rotation ledger: ERRTRACK_STATE_DIR,
// else the XDG state directory.
func (a *app) stateDir() (string, error) {
	if d := a.getenv("ERRTRACK_STATE_DIR"); d != "" {
		return d, nil
	}
	if d := a.getenv("XDG_STATE_HOME"); d != "" {
		return filepath.Join(d, "errtrack"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "state", "errtrack"), nil
}
