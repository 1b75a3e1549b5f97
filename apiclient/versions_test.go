package apiclient

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
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

// Before 14.2 settings have no integrated field: they decode, and encode
// without inventing one.
func TestSettingsWithoutIntegrated(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		jsonReply(w, 200, `{"active":true,"project_name":"P","sentry_external_url":"https://s/","api_url":"https://s/api/0/projects/o/p/"}`)
	})
	s, _, err := c.GetSettings(context.Background(), ProjectID(1))
	if err != nil || !s.Active || !s.NoIntegrated || s.Integrated {
		t.Fatal(s, err)
	}
	b, _ := json.Marshal(s)
	if strings.Contains(string(b), "integrated") || !strings.Contains(string(b), "errtracker_external_url") {
		t.Fatalf("%s", b)
	}
	b, _ = json.Marshal(Settings{Active: true, Integrated: true})
	if !strings.Contains(string(b), `"integrated":true`) {
		t.Fatalf("%s", b)
	}
}

// The request log sees every exchange, retries included, with the token
// replaced; its curl repeats the request with $GITLAB_TOKEN.
func TestObserverAndCurl(t *testing.T) {
	var seen []Exchange
	var calls atomic.Int32
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			jsonReply(w, 503, `{"message":"busy"}`)
			return
		}
		jsonReply(w, 200, `{"active":false,"integrated":true,"echo":"`+fakeToken+`"}`)
	}, WithObserver(func(e Exchange) { seen = append(seen, e) }))
	ref, _ := ParseProjectRef("demo/web-shop")
	if _, _, err := c.UpdateSettings(context.Background(), ref, false, nil); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 2 || seen[0].Status != 503 || seen[0].Attempt != 1 || seen[1].Attempt != 2 || seen[1].Status != 200 || seen[1].Err != nil {
		t.Fatalf("%+v", seen)
	}
	e := seen[1]
	if !strings.HasSuffix(e.URL, "/api/v4/projects/demo%2Fweb-shop/error_tracking/settings?active=false") || e.Method != "PATCH" {
		t.Fatalf("url %s", e.URL)
	}
	if e.RequestHeader.Get("PRIVATE-TOKEN") != "[redacted]" || strings.Contains(string(e.ResponseBody), fakeToken) {
		t.Fatal("the token is in the exchange")
	}
	want := `curl --request PATCH --header "PRIVATE-TOKEN: $GITLAB_TOKEN" '` + e.URL + `'`
	if got := e.Curl(); got != want || strings.Contains(got, fakeToken) {
		t.Fatalf("curl\n%s\nwant\n%s", got, want)
	}
	if q := shellQuote("it's"); q != `'it'\''s'` {
		t.Fatal(q)
	}
}

func TestRaw(t *testing.T) {
	c := setup(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v4/projects/7/variables" && r.Method == "POST" {
			b := make([]byte, 100)
			n, _ := r.Body.Read(b)
			jsonReply(w, 201, string(b[:n]))
			return
		}
		jsonReply(w, 404, `{"message":"404 Variable Not Found"}`)
	})
	_, body, err := c.Raw(context.Background(), "post", "/api/v4/projects/7/variables", nil, map[string]string{"key": "K"})
	if err != nil || string(body) != `{"key":"K"}` {
		t.Fatalf("%s %v", body, err)
	}
	_, body, err = c.Raw(context.Background(), "GET", "projects/7/variables/X?filter[environment_scope]=*", nil, nil)
	if !errors.Is(err, ErrNotFound) || !strings.Contains(string(body), "Variable Not Found") {
		t.Fatalf("%s %v", body, err)
	}
	for _, bad := range []string{"https://evil.example/api/v4/user", "//evil/x", "projects/../../x", ""} {
		if _, _, err := c.Raw(context.Background(), "GET", bad, nil, nil); !errors.Is(err, ErrValidation) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, _, err := c.Raw(context.Background(), "TRACE", "user", nil, nil); !errors.Is(err, ErrValidation) {
		t.Error("TRACE accepted")
	}
}
