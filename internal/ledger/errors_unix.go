//go:build unix

package ledger

import (
	"errors"
	"syscall"
)

// isReadOnly reports a write refused by a read-only file system.
func isReadOnly(err error) bool { return errors.Is(err, syscall.EROFS) }
