package apiclient

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// What an observer (the request log, --debug) gets of a CI/CD variables
// request never holds a value: not the list's, not a create's, not an
// update's, masked or not.
func TestObserverNeverSeesVariableValues(t *testing.T) {
	var seen []Exchange
	c, srv := againstMock(t, mockserver.Options{}, mockserver.TokenMaintainer, WithObserver(func(e Exchange) { seen = append(seen, e) }))
	ctx := context.Background()
	p := ProjectID(1)
	const secret = "AKIAIOSFODNN7EXAMPLEwJalrXUtnFEMI"
	if _, _, err := c.CreateVariable(ctx, p, NewVariable{Key: "AWS_SECRET", Value: secret, Masked: true}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.ListVariables(ctx, p); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.GetVariable(ctx, p, "AWS_SECRET", ""); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.UpdateVariableValue(ctx, p, "AWS_SECRET", "", secret+"2"); err != nil {
		t.Fatal(err)
	}
	dsn := srv.Variables(1)[0].Value // SENTRY_DSN's placeholder
	for _, e := range seen {
		all := string(e.RequestBody) + string(e.ResponseBody) + e.Curl()
		if strings.Contains(all, secret) || (dsn != "" && strings.Contains(string(e.ResponseBody), dsn)) {
			t.Fatalf("%s %s shows a value:\n%s", e.Method, e.URL, all)
		}
		if !strings.Contains(string(e.ResponseBody), "[redacted]") {
			t.Fatalf("%s %s: %s", e.Method, e.URL, e.ResponseBody)
		}
	}
	if len(seen) != 4 {
		t.Fatalf("%d exchanges", len(seen))
	}
}

// A token a server echoes in a header is removed from every header an
// observer gets; headers kept are bounded, and an answer with megabytes of
// headers is refused by the transport.
func TestHeadersScrubbedAndBounded(t *testing.T) {
	const token = "glpat-header-echo-secret-1234"
	big := strings.Repeat("x", 8<<10)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Echo", "you sent "+r.Header.Get("PRIVATE-TOKEN"))
		switch r.URL.Path {
		case "/api/v4/huge":
			for i := range 400 {
				w.Header().Add("X-Pad", big+string(rune('a'+i%26)))
			}
		case "/api/v4/many":
			for i := range 8 {
				w.Header().Add("X-Some", big+string(rune('a'+i)))
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":1,"username":"u"}`))
	}))
	defer ts.Close()
	var seen []Exchange
	c, err := New(ts.URL, token, WithRetries(0, 0), WithObserver(func(e Exchange) { seen = append(seen, e) }))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.CurrentUser(context.Background()); err != nil {
		t.Fatal(err)
	}
	e := seen[0]
	if v := e.ResponseHeader.Get("X-Echo"); strings.Contains(v, token) || !strings.Contains(v, "[redacted]") {
		t.Fatalf("X-Echo: %q", v)
	}
	if _, _, err := c.Raw(context.Background(), "GET", "many", nil, nil); err != nil {
		t.Fatal(err)
	}
	e = seen[len(seen)-1]
	size := 0
	for k, vs := range e.ResponseHeader {
		for _, v := range vs {
			size += len(k) + len(v)
		}
	}
	if size > maxObservedHeaders+64 {
		t.Fatalf("kept %d header bytes", size)
	}
	if _, _, err := c.Raw(context.Background(), "GET", "huge", nil, nil); err == nil {
		t.Fatal("3 MB of headers accepted")
	}
}

// A rotation answered with the current token (a replaying proxy) is not a
// new token, and the answer is decoded as sent: "[redacted]" never becomes
// a token.
func TestRotateAnswerDecodedAsSent(t *testing.T) {
	const token = "glpat-current-token-abcdef"
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":1,"name":"t","token":"` + token + `","expires_at":"2027-01-01"}`))
	}))
	defer ts.Close()
	var seen []Exchange
	c, _ := New(ts.URL, token, WithRetries(0, 0), WithObserver(func(e Exchange) { seen = append(seen, e) }))
	rt, _, err := c.RotateToken(context.Background(), time.Now().AddDate(0, 1, 0))
	if err != nil || rt.Token != token {
		t.Fatalf("%+v %v", rt, err)
	}
	if strings.Contains(string(seen[0].ResponseBody), token) {
		t.Fatal("the observer saw the token")
	}
}

// Proxies and servers that are not quite GitLab: a DELETE answered 204 or
// 200 with no body deleted the key; JSON relabelled text/plain is read;
// an HTML page is still no JSON.
func TestUnambiguousAnswersAccepted(t *testing.T) {
	for name, tc := range map[string]struct {
		status int
		ctype  string
		body   string
		ok     bool
	}{
		"delete 204":       {204, "", "", true},
		"delete 200 empty": {200, "text/html", "", true},
		"json as text":     {200, "text/plain; charset=utf-8", `{"id":7,"active":true,"public_key":"glet_x","sentry_dsn":"https://glet_x@h/api/v4/error_tracking/collector/1"}`, true},
		"json as octets":   {200, "application/octet-stream", `{"id":7,"public_key":"glet_x","errtracker_dsn":"https://glet_x@h/errortracking/api/v1/projects/api/1"}`, true},
		"html page":        {200, "text/html", `<html><body>{"id":7}</body></html>`, false},
		"json in html":     {200, "text/html", `{"id":7}`, false},
		"broken json":      {200, "text/plain", `{"id":7`, false},
	} {
		t.Run(name, func(t *testing.T) {
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tc.ctype != "" {
					w.Header().Set("Content-Type", tc.ctype)
				}
				w.WriteHeader(tc.status)
				w.Write([]byte(tc.body))
			}))
			defer ts.Close()
			c, _ := New(ts.URL, "tok-12345678", WithRetries(0, 0))
			var err error
			if strings.HasPrefix(name, "delete") {
				var k *ClientKey
				k, _, err = c.DeleteClientKey(context.Background(), ProjectID(1), 7)
				if err == nil && k.ID != 7 {
					t.Fatalf("key %+v", k)
				}
			} else {
				_, _, err = c.CreateClientKey(context.Background(), ProjectID(1))
			}
			if (err == nil) != tc.ok {
				t.Fatalf("err = %v, want ok %v", err, tc.ok)
			}
		})
	}
}

// Guards the mutation run found untested: a token with a space, a DEL or a
// control character is refused before any request; key ID 0 is refused,
// key ID 1 is not.
func TestClientGuards(t *testing.T) {
	for _, tok := range []string{"a b", "ab\x7f", "ab\n", "\x00"} {
		if _, err := New("https://gitlab.example.com", tok); err == nil {
			t.Errorf("token %q accepted", tok)
		}
	}
	if _, err := New("https://gitlab.example.com", "glpat-abc~!"); err != nil {
		t.Errorf("a printable token refused: %v", err)
	}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":1}`))
	}))
	defer ts.Close()
	c, _ := New(ts.URL, "tok-12345678", WithRetries(0, 0))
	if _, _, err := c.DeleteClientKey(context.Background(), ProjectID(1), 0); err == nil {
		t.Error("key ID 0 sent")
	}
	if _, _, err := c.DeleteClientKey(context.Background(), ProjectID(1), 1); err != nil {
		t.Errorf("key ID 1 refused: %v", err)
	}
}
