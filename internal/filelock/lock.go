package filelock

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// ErrLocked: another process (or another Lock in this one) holds the lock.
var ErrLocked = errors.New("the lock is held by another process")

// Lock takes an exclusive lock on path (created if missing), waiting up to
// wait for its holder to release it. The lock belongs to the open file, so
// it ends with the process, a crash included: flock(2) on Unix and
// LockFileEx on Windows, through gofrs/flock (which replaced a lock file
// kept fresh by its holder and taken over once a minute old).
func Lock(path string, wait time.Duration) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	fl := flock.New(path, flock.SetPermissions(0o600))
	deadline := time.Now().Add(wait)
	for {
		ok, err := fl.TryLock()
		if err != nil {
			return nil, err
		}
		if ok {
			return func() { _ = fl.Unlock() }, nil
		}
		if !time.Now().Before(deadline) {
			return nil, ErrLocked
		}
		time.Sleep(10 * time.Millisecond)
	}
}
