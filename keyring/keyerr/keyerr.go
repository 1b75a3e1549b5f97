// Package keyerr holds the keyring's typed errors without the keyring's
// dependencies (go-keyring, godbus): the error words (internal/explain)
// match them, and the console need not link a D-Bus client to do so.
package keyerr

import (
	"errors"
	"fmt"
)

// Typed errors; use errors.Is.
var (
	ErrNotFound    = errors.New("no token stored in the keyring")
	ErrUnavailable = errors.New("the system keyring is not available")
	ErrTimeout     = errors.New("the system keyring did not answer in time")
)

// Error is a keyring failure. It says what happened, not what to do: the
// front ends choose the advice (internal/explain).
type Error struct {
	Op   string // get, set, delete
	Host string
	Kind error // ErrNotFound, ErrUnavailable or ErrTimeout
	// Cause is the backend's own text; it never holds the token.
	Cause string
}

func (e *Error) Error() string {
	switch e.Kind {
	case ErrNotFound:
		return fmt.Sprintf("no token stored for %s in the system keyring", e.Host)
	case ErrTimeout:
		return fmt.Sprintf("the system keyring did not answer the %s in time", e.Op)
	}
	return fmt.Sprintf("the system keyring is not available: %s", e.Cause)
}

func (e *Error) Is(target error) bool { return target == e.Kind }
