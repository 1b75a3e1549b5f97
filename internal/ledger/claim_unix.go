//go:build unix

package ledger

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// claim locks path with flock. The file is removed by its holder before it
// unlocks, so a process that locked a file since removed tries again on
// the file now at path.
func claim(path string) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	for {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, err
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, ErrBusy
			}
			return nil, err
		}
		held, herr := f.Stat()
		now, nerr := os.Stat(path)
		if herr != nil || nerr != nil || !os.SameFile(held, now) {
			f.Close() // removed by its last holder meanwhile
			continue
		}
		var once sync.Once
		return func() {
			once.Do(func() {
				os.Remove(path)
				_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
				f.Close()
			})
		}, nil
	}
}
