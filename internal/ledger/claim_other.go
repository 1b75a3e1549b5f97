//go:build !unix

package ledger

import (
	"errors"
	"io/fs"

	"github.com/errtrack/errtrack/internal/filelock"
)

// claim takes filelock's lock file without waiting; it is removed on release.
func claim(path string) (func(), error) {
	release, err := filelock.Lock(path, 0)
	if errors.Is(err, fs.ErrExist) {
		return nil, ErrBusy
	}
	return release, err
}
