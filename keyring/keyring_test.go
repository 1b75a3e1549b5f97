package keyring

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	gokeyring "github.com/zalando/go-keyring"
)

const fakeToken = "fake-token-for-tests"

func TestWithMockProvider(t *testing.T) {
	gokeyring.MockInit()
	s := New()
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
	s := New()
	_, err := s.Get(context.Background(), "gitlab.com")
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(err.Error(), "GITLAB_TOKEN") || !strings.Contains(err.Error(), "org.freedesktop.secrets") {
		t.Fatalf("unhelpful text: %v", err)
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
		if err := f(); !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "unlock") {
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
	s := New()
	if err := s.Set(context.Background(), "gitlab.com", ""); err == nil {
		t.Fatal("empty token stored")
	}
	if err := s.Set(context.Background(), "ftp://x", fakeToken); err == nil {
		t.Fatal("bad host accepted")
	}
}
