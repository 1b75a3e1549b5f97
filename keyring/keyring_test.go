package keyring

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	gokeyring "github.com/zalando/go-keyring"
)

const fakeToken = "fake-token-for-tests"

// mockStore is the Store on go-keyring's in-memory provider, without the
// D-Bus check (the tests may run outside a D-Bus session).
func mockStore() *Store { return NewWithBackend(systemBackend{}, 0) }

func TestWithMockProvider(t *testing.T) {
	gokeyring.MockInit()
	s := mockStore()
	ctx := context.Background()
	if _, err := s.Get(ctx, "gitlab.example.com"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("get before set: %v", err)
	}
	if err := s.Set(ctx, "https://GitLab.example.com/", fakeToken); err != nil {
		t.Fatal(err)
	}
	got, err := s.Get(ctx, "gitlab.example.com")
	if err != nil || got != fakeToken {
		t.Fatalf("get = %q, %v", got, err)
	}
	if v, err := gokeyring.Get(Service, "https://gitlab.example.com"); err != nil || v != fakeToken {
		t.Fatalf("stored under an unexpected name: %v", err)
	}
	if err := s.Delete(ctx, "gitlab.example.com"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "gitlab.example.com"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
}

func TestUnavailable(t *testing.T) {
	gokeyring.MockInitWithError(errors.New("The name org.freedesktop.secrets was not provided by any .service files"))
	s := mockStore()
	_, err := s.Get(context.Background(), "gitlab.com")
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), "org.freedesktop.secrets") {
		t.Fatalf("the cause is lost: %v", err)
	}
	// Advice is the front ends' to give.
	if strings.Contains(err.Error(), "GITLAB_TOKEN") || strings.Contains(err.Error(), "errtrack login") {
		t.Fatalf("library error carries advice: %v", err)
	}
}

type blockingBackend struct{ release chan struct{} }

func (b blockingBackend) Get(string, string) (string, error) { <-b.release; return "", nil }
func (b blockingBackend) Set(string, string, string) error   { <-b.release; return nil }
func (b blockingBackend) Delete(string, string) error        { <-b.release; return nil }

func TestTimeout(t *testing.T) {
	b := blockingBackend{make(chan struct{})}
	defer close(b.release)
	s := NewWithBackend(b, 50*time.Millisecond)
	start := time.Now()
	for _, f := range []func() error{
		func() error { _, err := s.Get(context.Background(), "gitlab.com"); return err },
		func() error { return s.Set(context.Background(), "gitlab.com", fakeToken) },
		func() error { return s.Delete(context.Background(), "gitlab.com") },
	} {
		if err := f(); !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "in time") {
			t.Fatalf("err = %v", err)
		}
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("took %v", d)
	}
}

type panicBackend struct{}

func (panicBackend) Get(string, string) (string, error) { panic("dbus exploded") }
func (panicBackend) Set(string, string, string) error   { panic("dbus exploded") }
func (panicBackend) Delete(string, string) error        { panic("dbus exploded") }

func TestBackendPanicIsAnError(t *testing.T) {
	s := NewWithBackend(panicBackend{}, time.Second)
	if _, err := s.Get(context.Background(), "gitlab.com"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v", err)
	}
}

func TestBadInput(t *testing.T) {
	gokeyring.MockInit()
	s := mockStore()
	if err := s.Set(context.Background(), "gitlab.com", ""); err == nil {
		t.Fatal("empty token stored")
	}
	if err := s.Set(context.Background(), "ftp://x", fakeToken); err == nil {
		t.Fatal("bad host accepted")
	}
}

// A token another tool stored with a trailing newline is read trimmed; an
// entry of blanks is no token.
func TestStoredTokenTrimmed(t *testing.T) {
	gokeyring.MockInit()
	s := mockStore()
	gokeyring.Set(Service, "https://gitlab.com", fakeToken+"\n")
	if tok, err := s.Get(context.Background(), "gitlab.com"); err != nil || tok != fakeToken {
		t.Fatalf("get = %q, %v", tok, err)
	}
	gokeyring.Set(Service, "https://gitlab.com", " \n")
	if _, err := s.Get(context.Background(), "gitlab.com"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
}

// Without a session bus, the keyring is unavailable at once: godbus would
// otherwise run dbus-launch, leaving daemons behind that hold the
// environment (GITLAB_TOKEN included).
func TestNoSessionBusNeverLaunchesOne(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "launched")
	script := "#!/bin/sh\ntouch " + marker + "\nexit 1\n"
	if err := os.WriteFile(filepath.Join(dir, "dbus-launch"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	s := New()
	_, err := s.Get(context.Background(), "gitlab.com")
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		return
	}
	if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "D-Bus") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("dbus-launch was run")
	}
}

func TestSessionBusDetection(t *testing.T) {
	run := t.TempDir()
	os.WriteFile(filepath.Join(run, "bus"), nil, 0o600)
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		goos string
		env  map[string]string
		ok   bool
	}{
		{"linux", map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"}, true},
		{"linux", map[string]string{"XDG_RUNTIME_DIR": run}, true},
		{"linux", map[string]string{"XDG_RUNTIME_DIR": t.TempDir()}, false},
		{"linux", map[string]string{}, false},
		{"linux", map[string]string{"DBUS_SESSION_BUS_ADDRESS": "autolaunch:"}, false},
		{"freebsd", map[string]string{}, false},
		{"darwin", map[string]string{}, true},
		{"windows", map[string]string{}, true},
	} {
		if err := sessionBus(tc.goos, env(tc.env)); (err == nil) != tc.ok {
			t.Errorf("%s %v: %v", tc.goos, tc.env, err)
		}
	}
}

// Sentry tokens live under their own service: a GitLab and a Sentry on
// one host keep a token each, and neither store reads the other's.
func TestSentryStoreIsApart(t *testing.T) {
	gokeyring.MockInit()
	ctx := context.Background()
	gl, se := mockStore(), mockStore().Sentry()
	if err := gl.Set(ctx, "https://sentry.example.com", "gitlab-token"); err != nil {
		t.Fatal(err)
	}
	if _, err := se.Get(ctx, "https://sentry.example.com"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the Sentry store read the GitLab token: %v", err)
	}
	if err := se.Set(ctx, "https://Sentry.example.com/", "sentry-token"); err != nil {
		t.Fatal(err)
	}
	if v, err := gokeyring.Get(SentryService, "https://sentry.example.com"); err != nil || v != "sentry-token" {
		t.Fatalf("stored as %q, %v", v, err)
	}
	if v, _ := gl.Get(ctx, "https://sentry.example.com"); v != "gitlab-token" {
		t.Fatalf("the GitLab token became %q", v)
	}
	if err := se.Delete(ctx, "sentry.example.com"); err != nil {
		t.Fatal(err)
	}
}

// NewWithBackend returns, for the tests, a Store on b with the given per-call timeout.
func NewWithBackend(b Backend, timeout time.Duration) *Store {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &Store{backend: b, timeout: timeout, service: Service}
}
