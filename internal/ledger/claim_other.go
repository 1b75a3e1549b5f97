//go:build !unix

package ledger

import (
	"errors"

	"github.com/errtrack/errtrack/internal/filelock"
)

// claim takes filelock's lock without waiting. The file stays after
// release (an empty file, taken again by the next claim): the system's
// lock, not the file, says who holds it.
func claim(path string) (func(), error) {
	release, err := filelock.Lock(path, 0)
	if errors.Is(err, filelock.ErrLocked) {
		return nil, ErrBusy
	}
	return release, err
}
