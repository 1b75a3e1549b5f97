package explain

import (
	"testing"

	"github.com/errtrack/errtrack/keyring/keyerr"
)

// nested reports parentheses inside parentheses, which read badly.
func nested(s string) bool {
	depth := 0
	for _, r := range s {
		switch r {
		case '(':
			depth++
			if depth > 1 {
				return true
			}
		case ')':
			depth--
		}
	}
	return false
}

// A keyring's cause with parentheses of its own is not put inside more.
func TestKeyringWordsDoNotNest(t *testing.T) {
	err := &keyerr.Error{Op: "get", Host: "https://gitlab.example.com", Kind: keyerr.ErrUnavailable,
		Cause: "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus)"}
	s := Error(err, Context{Retry: "run the command again", Login: "run errtrack login"})
	if nested(s) {
		t.Fatalf("nested parentheses: %q", s)
	}
}
