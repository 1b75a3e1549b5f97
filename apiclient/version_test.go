package apiclient

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"testing"
)

// A release without the endpoint answers GitLab's catch-all 404, with the
// key "error"; the client says so as a kind of its own and looks up the
// release, once.
func TestRouteMissingNamesTheRelease(t *testing.T) {
	var versions atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v4/version":
			versions.Add(1)
			jsonReply(w, 200, `{"version":"15.4.2-ee","revision":"abc"}`)
		case "/api/v4/projects/1/error_tracking/settings":
			if r.Method == "PUT" {
				jsonReply(w, 404, `{"error":"404 Not Found"}`)
				return
			}
			jsonReply(w, 404, `{"message":"404 Not Found"}`) // a flag, not a missing route
		}
	})
	for i := 0; i < 2; i++ {
		_, _, err := c.CreateSettings(context.Background(), ProjectID(1), true, true)
		var e *APIError
		if !errors.As(err, &e) || !errors.Is(err, ErrRouteMissing) || !errors.Is(err, ErrNotFound) || e.ServerVersion != "15.4.2-ee" {
			t.Fatalf("err = %#v", err)
		}
	}
	if n := versions.Load(); n != 1 {
		t.Fatalf("/version asked %d times", n)
	}
	_, _, err := c.GetSettings(context.Background(), ProjectID(1))
	if errors.Is(err, ErrRouteMissing) {
		t.Fatal(`{"message":…} taken for a missing route`)
	}
}

// /metadata (15.2+) answers when /version does not.
func TestVersionFromMetadata(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v4/metadata" {
			jsonReply(w, 200, `{"version":"16.0.0-pre","revision":"x","kas":{"enabled":false},"enterprise":false}`)
			return
		}
		jsonReply(w, 404, `{"error":"404 Not Found"}`)
	})
	v, err := c.ServerVersion(context.Background())
	if err != nil || v.Short() != "16.0" || !v.AtLeast(15, 10) || v.AtLeast(16, 1) {
		t.Fatal(v, err)
	}
}

func TestVersionParsing(t *testing.T) {
	for in, want := range map[string]string{"17.5.1-ee": "17.5", "16.0.0-pre": "16.0", "v15.10.3": "15.10", "14.3": "14.3", "weird": "weird"} {
		if got := (ServerVersion{Version: in}).Short(); got != want {
			t.Errorf("%s: %s", in, got)
		}
	}
}
