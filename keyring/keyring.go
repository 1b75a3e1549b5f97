// Package keyring keeps one GitLab access token per host in the operating
// system's keyring (Secret Service, Keychain, Credential Manager), with every
// call bounded in time so a keyring waiting on an unlock prompt cannot freeze
// the program. There is no plain-text fallback.
package keyring

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	gokeyring "github.com/zalando/go-keyring"

	"github.com/errtrack/errtrack/internal/hosturl"
	"github.com/errtrack/errtrack/keyring/keyerr"
)

// Service is the keyring service name under which tokens are stored.
const Service = "errtrack"

// SentryService is the service under which Sentry tokens are stored, one
// per Sentry base URL, apart from the GitLab tokens: a Sentry host and a
// GitLab host may share a name.
const SentryService = "errtrack-sentry"

// DefaultTimeout bounds each keyring call.
const DefaultTimeout = 5 * time.Second

// Typed errors; use errors.Is. They live in keyerr, which has no
// dependencies, so the error words can match them without linking D-Bus.
var (
	ErrNotFound    = keyerr.ErrNotFound
	ErrUnavailable = keyerr.ErrUnavailable
	ErrTimeout     = keyerr.ErrTimeout
)

// Backend is the raw keyring; go-keyring in production, fakes in tests.
type Backend interface {
	Get(service, user string) (string, error)
	Set(service, user, secret string) error
	Delete(service, user string) error
}

// systemBackend is go-keyring. With checkBus it first makes sure a D-Bus
// session exists where the Secret Service is used: without one, godbus runs
// dbus-launch, which leaves a dbus-daemon and a gnome-keyring-daemon running
// after errtrack exits, holding errtrack's environment.
type systemBackend struct{ checkBus bool }

func (b systemBackend) Get(s, u string) (string, error) {
	if err := b.bus(); err != nil {
		return "", err
	}
	return gokeyring.Get(s, u)
}

func (b systemBackend) Set(s, u, p string) error {
	if err := b.bus(); err != nil {
		return err
	}
	return gokeyring.Set(s, u, p)
}

func (b systemBackend) Delete(s, u string) error {
	if err := b.bus(); err != nil {
		return err
	}
	return gokeyring.Delete(s, u)
}

func (b systemBackend) bus() error {
	if !b.checkBus {
		return nil
	}
	return sessionBus(runtime.GOOS, os.Getenv)
}

// errNoSessionBus: no D-Bus session to find the Secret Service on.
var errNoSessionBus = errors.New("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set and there is no $XDG_RUNTIME_DIR/bus)")

// sessionBus reports whether the Secret Service can be reached without
// autolaunching a bus: the address godbus would use is set, or the
// per-user bus socket exists. macOS and Windows use no D-Bus.
func sessionBus(goos string, getenv func(string) string) error {
	if goos == "darwin" || goos == "windows" {
		return nil
	}
	// godbus autolaunches for "autolaunch:" as for no address at all.
	if a := getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" && a != "autolaunch:" {
		return nil
	}
	if dir := getenv("XDG_RUNTIME_DIR"); dir != "" {
		if _, err := os.Stat(filepath.Join(dir, "bus")); err == nil {
			return nil
		}
	}
	return errNoSessionBus
}

// Store reads and writes tokens by host.
type Store struct {
	backend Backend
	timeout time.Duration
	service string
}

// New returns a Store on the system keyring.
func New() *Store {
	return &Store{backend: systemBackend{checkBus: true}, timeout: DefaultTimeout, service: Service}
}

// Sentry is the store of Sentry tokens on the same keyring, by Sentry base
// URL (SentryService).
func (s *Store) Sentry() *Store {
	c := *s
	c.service = SentryService
	return &c
}

// Error is a keyring failure (keyerr.Error).
type Error = keyerr.Error

// User is the keyring account name for host: its normalized URL.
func User(host string) (string, error) { return hosturl.Normalize(host) }

// Get returns the token stored for host.
func (s *Store) Get(ctx context.Context, host string) (string, error) {
	user, err := User(host)
	if err != nil {
		return "", err
	}
	var tok string
	err = s.call(ctx, "get", user, func() error {
		var e error
		tok, e = s.backend.Get(s.service, user)
		return e
	})
	if err != nil {
		return "", err
	}
	// An entry stored by another tool may end in a newline.
	if tok = strings.TrimSpace(tok); tok == "" {
		return "", &Error{Op: "get", Host: user, Kind: ErrNotFound}
	}
	return tok, nil
}

// Set stores token for host, replacing any earlier one.
func (s *Store) Set(ctx context.Context, host, token string) error {
	user, err := User(host)
	if err != nil {
		return err
	}
	if token == "" || strings.ContainsAny(token, "\r\n") {
		return errors.New("the token is empty or spans several lines")
	}
	return s.call(ctx, "set", user, func() error { return s.backend.Set(s.service, user, token) })
}

// Delete removes the token for host. Deleting a missing entry gives ErrNotFound.
func (s *Store) Delete(ctx context.Context, host string) error {
	user, err := User(host)
	if err != nil {
		return err
	}
	return s.call(ctx, "delete", user, func() error { return s.backend.Delete(s.service, user) })
}

// call runs fn on its own goroutine and gives up after the timeout; the
// goroutine may linger on a stuck D-Bus call, but the caller moves on.
func (s *Store) call(ctx context.Context, op, host string, fn func() error) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("keyring backend failed: %v", r)
			}
		}()
		done <- fn()
	}()
	select {
	case err := <-done:
		switch {
		case err == nil:
			return nil
		case errors.Is(err, gokeyring.ErrNotFound):
			return &Error{Op: op, Host: host, Kind: ErrNotFound}
		default:
			return &Error{Op: op, Host: host, Kind: ErrUnavailable, Cause: firstLine(err.Error())}
		}
	case <-ctx.Done():
		return &Error{Op: op, Host: host, Kind: ErrTimeout}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
