//go:build !unix

package ledger

import "github.com/errtrack/errtrack/internal/filelock"

// appendLock takes filelock's lock for one append.
func (l *Ledger) appendLock() (func(), error) {
	return filelock.Lock(l.path+".lock", lockWait)
}
