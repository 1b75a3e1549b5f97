package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Answers a hostile or broken server might give; each must end in a clear
// error or safely decoded data, never a hang or a panic.

func TestEndlessBody(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`[{"id":1,"public_key":"`))
		chunk := []byte(strings.Repeat("a", 64<<10))
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	start := time.Now()
	_, _, err := c.ListClientKeys(context.Background(), ProjectID(1))
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("took %v", d)
	}
}

func TestHugeDeclaredBody(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(1<<30)) // 1 GiB promised, a few bytes sent
		w.Write([]byte(`{"id":1}`))
	}, WithRetries(0, 0), WithTimeout(2*time.Second))
	if _, _, err := c.CurrentUser(context.Background()); err == nil {
		t.Fatal("a truncated 1 GiB body decoded")
	}
}

func TestHugeNumbers(t *testing.T) {
	for _, body := range []string{`[{"id":1e400,"active":true}]`, `[{"id":99999999999999999999,"active":true}]`, `[{"id":-1.5}]`} {
		c := setup(t, func(w http.ResponseWriter, r *http.Request) { jsonReply(w, 200, body) })
		if _, _, err := c.ListClientKeys(context.Background(), ProjectID(1)); !errors.Is(err, ErrBadResponse) {
			t.Errorf("%s: err = %v", body, err)
		}
	}
}

func TestMissingRequiredFields(t *testing.T) {
	for _, body := range []string{`{}`, `{"integrated":true}`, `null`} {
		c := setup(t, func(w http.ResponseWriter, r *http.Request) { jsonReply(w, 200, body) })
		if _, _, err := c.GetSettings(context.Background(), ProjectID(1)); !errors.Is(err, ErrBadResponse) {
			t.Errorf("%s: err = %v", body, err)
		}
	}
}

func TestInvalidUTF8Decodes(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte("[{\"id\":1,\"active\":true,\"public_key\":\"glet_\xff\xfe\",\"errtracker_dsn\":\"https://\xc3\x28@h\"}]"))
	})
	keys, _, err := c.ListClientKeys(context.Background(), ProjectID(1))
	if err != nil || len(keys) != 1 {
		t.Fatal(keys, err)
	}
	if !utf8.ValidString(keys[0].PublicKey) || !utf8.ValidString(keys[0].DSN) {
		t.Fatal("invalid UTF-8 passed through")
	}
}

func TestRedirectLoop(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Path, http.StatusFound)
	}, WithRetries(0, 0))
	_, _, err := c.CurrentUser(context.Background())
	if err == nil || !strings.Contains(err.Error(), "redirects") {
		t.Fatalf("err = %v", err)
	}
}

func TestHTTPSDowngradeRedirectRefused(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "https://"+r.Host+r.URL.Path, http.StatusFound) // another scheme
	}, WithRetries(0, 0))
	if _, _, err := c.CurrentUser(context.Background()); !errors.Is(err, ErrCrossRedirect) {
		t.Fatalf("err = %v", err)
	}
}
