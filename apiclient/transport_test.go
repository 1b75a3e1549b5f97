package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestRedirectToAnotherHostKeepsToken(t *testing.T) {
	var leaked atomic.Bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("PRIVATE-TOKEN") != "" || r.Header.Get("Authorization") != "" {
			leaked.Store(true)
		}
		jsonReply(w, 200, `{"id":1}`)
	}))
	defer other.Close()
	otherURL := strings.Replace(other.URL, "127.0.0.1", "localhost", 1) // another host name
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, otherURL+r.URL.Path, http.StatusFound)
	})
	_, _, err := c.CurrentUser(context.Background())
	if !errors.Is(err, ErrCrossRedirect) {
		t.Fatalf("err = %v, want ErrCrossRedirect", err)
	}
	if leaked.Load() {
		t.Fatal("token was sent to the other host")
	}
}

func TestSameHostRedirectFollowed(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v4/projects/old%2Fpath" || strings.HasSuffix(r.URL.EscapedPath(), "old%2Fpath") {
			http.Redirect(w, r, "/api/v4/projects/9", http.StatusMovedPermanently)
			return
		}
		if r.Header.Get("PRIVATE-TOKEN") != fakeToken {
			jsonReply(w, 401, `{"message":"401 Unauthorized"}`)
			return
		}
		jsonReply(w, 200, `{"id":9}`)
	})
	p, _ := ParseProjectRef("old/path")
	got, _, err := c.GetProject(context.Background(), p)
	if err != nil || got.ID != 9 {
		t.Fatal(got, err)
	}
}

func TestOversizeBody(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":1,"username":"`+strings.Repeat("a", 4096)+`"}`)
	}, WithMaxBody(1024))
	_, _, err := c.CurrentUser(context.Background())
	if !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err = %v", err)
	}
}

func TestBodyThatNeverEnds(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":1,`)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}, WithTimeout(200*time.Millisecond), WithRetries(0, 0))
	start := time.Now()
	_, _, err := c.CurrentUser(context.Background())
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "no complete answer within 200ms") {
		t.Fatalf("err = %v", err)
	}
	if time.Since(start) > 2*time.Second {
		t.Fatal("timeout not honoured")
	}
}
