package ledger

import (
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/errtrack/errtrack/internal/filelock"
)

// Every lock of the ledger is the system's lock on an open file, through
// gofrs/flock on every system (flock(2) on Unix, LockFileEx on Windows): it
// ends with its holder, a crash included.

// appendLock locks the ledger's lock file for one append, waiting up to
// lockWait for another process's append.
func (l *Ledger) appendLock() (func(), error) {
	if l.lockF == nil {
		l.lockF = flock.New(l.path+".lock", flock.SetPermissions(0o600))
	}
	fl := l.lockF
	deadline := time.Now().Add(lockWait)
	for {
		ok, err := fl.TryLock()
		switch {
		case err != nil:
			return nil, err
		case ok:
			return func() { _ = fl.Unlock() }, nil
		case time.Now().After(deadline):
			return nil, filelock.ErrLocked
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// claim locks path without waiting; ErrBusy when another holds it. Its
// holder removes the file before it unlocks (where the system lets an open
// file go), so a process that locked a file since removed tries again on
// the file now at path.
func claim(path string) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	for {
		fl := flock.New(path, flock.SetPermissions(0o600))
		ok, err := fl.TryLock()
		switch {
		case err != nil:
			return nil, err
		case !ok:
			return nil, ErrBusy
		}
		held, herr := fl.Stat()
		now, nerr := os.Stat(path)
		if herr != nil || nerr != nil || !os.SameFile(held, now) {
			_ = fl.Unlock() // removed by its last holder meanwhile
			continue
		}
		var once sync.Once
		return func() {
			once.Do(func() {
				os.Remove(path)
				_ = fl.Unlock()
			})
		}, nil
	}
}
