package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
	"github.com/errtrack/errtrack/keyring"
)

// memStore is an in-memory keyring for command tests.
type memStore struct {
	mu sync.Mutex
	m  map[string]string
	// failSets, when set, fails the Set calls it returns true for (1 is
	// the first Set).
	failSets func(n int) bool
	sets     int
}

func (s *memStore) Get(_ context.Context, host string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.m[host]; ok {
		return t, nil
	}
	return "", &keyring.Error{Op: "get", Host: host, Kind: keyring.ErrNotFound}
}

func (s *memStore) Set(_ context.Context, host, token string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sets++
	if s.failSets != nil && s.failSets(s.sets) {
		return &keyring.Error{Op: "set", Host: host, Kind: keyring.ErrUnavailable, Cause: "locked"}
	}
	s.m[host] = token
	return nil
}

func (s *memStore) Delete(_ context.Context, host string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.m[host]; !ok {
		return &keyring.Error{Op: "delete", Host: host, Kind: keyring.ErrNotFound}
	}
	delete(s.m, host)
	return nil
}

type cli struct {
	t      testing.TB
	url    string
	env    map[string]string
	store  *memStore
	tty    bool
	cfg    string
	server *mockserver.Server
	// stdin, when set, replaces the string given to run.
	stdin io.Reader
	// signals reaches the app's signal handler, as a real signal would.
	signals chan os.Signal
	// now, when set, is the commands' clock; run stores it in clock, when
	// set, so a mock's clock can follow it.
	now   time.Time
	clock *atomic.Pointer[time.Time]
	// dir is where git looks for remotes; "" is a directory with none.
	dir string
	// sentry is the keyring's Sentry store; never the real keyring.
	sentry *memStore
	// jqLimit, when set, is --jq's memory bound.
	jqLimit uint64
	// exchangeDefault, when set, replaces apiclient.DefaultTimeout.
	exchangeDefault time.Duration
}

type result struct {
	code           int
	stdout, stderr string
}

func newCLI(t testing.TB, h http.Handler) *cli {
	t.Helper()
	var srv *mockserver.Server
	if h == nil {
		s, err := mockserver.New(mockserver.Options{})
		if err != nil {
			t.Fatal(err)
		}
		srv, h = s, s
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	return &cli{t: t, url: ts.URL, server: srv, store: &memStore{m: map[string]string{}},
		env: map[string]string{"GITLAB_TOKEN": mockserver.TokenMaintainer, "GITLAB_HOST": ts.URL, "ERRTRACK_STATE_DIR": t.TempDir()},
		cfg: filepath.Join(t.TempDir(), "config.json")}
}

func (c *cli) run(stdin string, args ...string) result {
	c.t.Helper()
	var out, errb syncBuffer
	// The app's own prompt readers run, on the test's input.
	a := newApp()
	a.stdin, a.stdout, a.stderr = io.Reader(strings.NewReader(stdin)), &out, &errb
	if c.stdin != nil {
		a.stdin = c.stdin
	}
	a.getenv = func(k string) string { return c.env[k] }
	a.unsetenv = func(string) {}
	a.keyring = c.store
	if c.sentry == nil {
		c.sentry = &memStore{m: map[string]string{}}
	}
	a.sentryKeyring = c.sentry
	a.configPath = c.cfg
	a.stdinIsTTY = func() bool { return c.tty }
	a.consoleTTY = func() bool { return false }
	a.readSecret = a.readLine // the hidden prompt needs a real terminal; the tmux tests cover it
	if c.signals == nil {
		c.signals = make(chan os.Signal, 2)
	}
	a.signals = c.signals
	a.dir = c.dir
	a.jqLimit = c.jqLimit
	a.exchangeDefault = c.exchangeDefault
	if a.dir == "" {
		a.dir = c.t.TempDir() // not a clone: the tests' own checkout has remotes
	}
	if !c.now.IsZero() {
		now := c.now
		a.now = func() time.Time { return now }
	}
	if c.clock != nil {
		now := c.now
		c.clock.Store(&now)
	}
	code := a.run(args)
	r := result{code, out.String(), errb.String()}
	for _, tok := range []string{mockserver.TokenMaintainer, mockserver.TokenExpired, mockserver.TokenReadOnly, mockserver.TokenDeveloper} {
		if strings.Contains(r.stdout+r.stderr, tok) {
			c.t.Fatalf("token %s printed by %v:\n%s%s", tok, args, r.stdout, r.stderr)
		}
	}
	return r
}

// syncBuffer is a bytes.Buffer safe for the app's prompt goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func (r result) must(t *testing.T, code int, want ...string) {
	t.Helper()
	if r.code != code {
		t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", r.code, code, r.stdout, r.stderr)
	}
	for _, w := range want {
		if !strings.Contains(r.stdout+r.stderr, w) {
			t.Fatalf("output lacks %q\nstdout: %s\nstderr: %s", w, r.stdout, r.stderr)
		}
	}
}

// timed runs f and fails when it takes longer than d.
func timed(t *testing.T, d time.Duration, f func() result) result {
	t.Helper()
	done := make(chan result, 1)
	go func() { done <- f() }()
	select {
	case r := <-done:
		return r
	case <-time.After(d):
		t.Fatalf("still running after %v", d)
	}
	return result{}
}
