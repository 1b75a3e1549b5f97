//go:build unix

package ledger

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// appendLock locks the ledger's lock file for one append: its file stays
// open, so each append costs two flock calls and no open.
func (l *Ledger) appendLock() (func(), error) {
	if l.lockF == nil {
		f, err := os.OpenFile(l.path+".lock", os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, err
		}
		l.lockF = f
	}
	fd := int(l.lockF.Fd())
	deadline := time.Now().Add(lockWait)
	for {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { _ = syscall.Flock(fd, syscall.LOCK_UN) }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
			return nil, err
		}
		time.Sleep(2 * time.Millisecond)
	}
}
