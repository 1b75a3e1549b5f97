package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
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
	// A chain of k redirects on the same host: four are followed to the
	// answer, a fifth is not, and the loop is sent exactly five times.
	chain := func(k int) (*Client, *atomic.Int64) {
		var sent atomic.Int64
		c := setup(t, func(w http.ResponseWriter, r *http.Request) {
			sent.Add(1)
			n, _ := strconv.Atoi(r.URL.Query().Get("hop"))
			if k < 0 || n < k {
				http.Redirect(w, r, r.URL.Path+"?hop="+strconv.Itoa(n+1), http.StatusFound)
				return
			}
			fmt.Fprint(w, `{"id":1,"username":"u"}`)
		}, WithRetries(0, 0))
		return c, &sent
	}
	c, sent := chain(4)
	if _, _, err := c.CurrentUser(context.Background()); err != nil || sent.Load() != 5 {
		t.Fatalf("4 redirects: %v after %d requests", err, sent.Load())
	}
	for _, k := range []int{5, -1} {
		c, sent := chain(k)
		_, _, err := c.CurrentUser(context.Background())
		if !errors.Is(err, ErrBadResponse) || !strings.Contains(err.Error(), "stopped after 5 redirects") || sent.Load() != 5 {
			t.Fatalf("%d redirects: %v after %d requests", k, err, sent.Load())
		}
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
