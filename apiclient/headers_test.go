package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// Rack turns every dash and underscore of a header's name into an
// underscore (HTTP_PRIVATE_TOKEN): Private_Token is PRIVATE-TOKEN to
// GitLab, and is refused as it is, in any case.
func TestCheckHeaderUnderscores(t *testing.T) {
	sent := false
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { sent = true }))
	defer ts.Close()
	c, err := New(ts.URL, mockserver.TokenMaintainer)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Private_Token", "PRIVATE_TOKEN", "private_token", "Job_Token", "Proxy_Authorization", "Content_Length", "Transfer_Encoding"} {
		if err := CheckHeader(name, "x"); !errors.Is(err, ErrValidation) {
			t.Errorf("%s accepted: %v", name, err)
		}
		if _, _, err := c.RawCall(context.Background(), RawRequest{Path: "user", Header: http.Header{name: {"x"}}}); !errors.Is(err, ErrValidation) {
			t.Errorf("%s sent: %v", name, err)
		}
	}
	if sent {
		t.Fatal("a refused header's request was sent")
	}
	if err := CheckHeader("X_Custom", "x"); err != nil {
		t.Fatalf("an ordinary underscore name refused: %v", err)
	}
}

// Paging headers: a plain non-negative number up to a billion, anything
// else 0 (never a huge page number that would be requested next).
func TestAtoiHeader(t *testing.T) {
	for v, want := range map[string]int{"": 0, "12": 12, " 7 ": 7, "0": 0, "-3": 0, "1e3": 0, "3.5": 0, "x": 0,
		"1000000000": 1e9, "1000000001": 0, "99999999999999999999999": 0} {
		if got := atoiHeader(http.Header{"X-Next-Page": {v}}, "X-Next-Page"); got != want {
			t.Errorf("%q read as %d, want %d", v, got, want)
		}
	}
}

// Every write's answer must be the object it writes: a 2xx answer that is
// another object (here a user, as a mis-set host or a proxy might send) is
// ErrBadResponse, an outcome unknown, and nothing is returned as written.
func TestWriteAnswersChecked(t *testing.T) {
	const user = `{"id":1,"username":"root","name":"Administrator","state":"active"}`
	serve := func(body string) *Client {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, body)
		}))
		t.Cleanup(ts.Close)
		c, err := New(ts.URL, mockserver.TokenMaintainer, WithRetries(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	ctx := context.Background()
	p := ProjectID(1)
	integrated := true
	for name, call := range map[string]func(c *Client) (any, error){
		"create key":      func(c *Client) (any, error) { return first(c.CreateClientKey(ctx, p)) },
		"delete key":      func(c *Client) (any, error) { return first(c.DeleteClientKey(ctx, p, 9)) },
		"create settings": func(c *Client) (any, error) { return first(c.CreateSettings(ctx, p, true, true)) },
		"update settings": func(c *Client) (any, error) { return first(c.UpdateSettings(ctx, p, false, &integrated)) },
		"create variable": func(c *Client) (any, error) {
			return first(c.CreateVariable(ctx, p, NewVariable{Key: "SENTRY_DSN", Value: "https://k@h/1"}))
		},
		"update variable": func(c *Client) (any, error) {
			return first(c.UpdateVariableValue(ctx, p, "SENTRY_DSN", "", "https://k@h/1"))
		},
	} {
		got, err := call(serve(user))
		if !errors.Is(err, ErrBadResponse) || !OutcomeUnknown(err) || !reflect.ValueOf(got).IsNil() {
			t.Errorf("%s answered with a user: %v, %+v", name, err, got)
		}
	}
	// Near misses: the right kind of object, but not the one written.
	for name, tc := range map[string]struct {
		body string
		call func(c *Client) (any, error)
	}{
		"key without DSN":       {`{"id":5,"public_key":"glet_a","active":true}`, func(c *Client) (any, error) { return first(c.CreateClientKey(ctx, p)) }},
		"another key deleted":   {`{"id":8,"public_key":"glet_a","sentry_dsn":"https://glet_a@h/1"}`, func(c *Client) (any, error) { return first(c.DeleteClientKey(ctx, p, 9)) }},
		"settings still active": {`{"active":true,"integrated":true}`, func(c *Client) (any, error) { return first(c.UpdateSettings(ctx, p, false, nil)) }},
		"another variable": {`{"key":"OTHER","value":"https://k@h/1","environment_scope":"*"}`, func(c *Client) (any, error) {
			return first(c.UpdateVariableValue(ctx, p, "SENTRY_DSN", "", "https://k@h/1"))
		}},
		"another value": {`{"key":"SENTRY_DSN","value":"old","environment_scope":"*"}`, func(c *Client) (any, error) {
			return first(c.UpdateVariableValue(ctx, p, "SENTRY_DSN", "", "https://k@h/1"))
		}},
		"another scope": {`{"key":"SENTRY_DSN","value":"https://k@h/1","environment_scope":"staging"}`, func(c *Client) (any, error) {
			return first(c.UpdateVariableValue(ctx, p, "SENTRY_DSN", "production", "https://k@h/1"))
		}},
	} {
		if got, err := tc.call(serve(tc.body)); !errors.Is(err, ErrBadResponse) || !reflect.ValueOf(got).IsNil() {
			t.Errorf("%s: %v, %+v", name, err, got)
		}
	}
	// The objects themselves pass.
	for name, tc := range map[string]struct {
		body string
		call func(c *Client) (any, error)
	}{
		"key":      {`{"id":5,"public_key":"glet_a","sentry_dsn":"https://glet_a@h/1"}`, func(c *Client) (any, error) { return first(c.CreateClientKey(ctx, p)) }},
		"settings": {`{"active":false,"integrated":true}`, func(c *Client) (any, error) { return first(c.UpdateSettings(ctx, p, false, nil)) }},
		"hidden variable": {`{"key":"SENTRY_DSN","value":null,"hidden":true,"environment_scope":"*"}`, func(c *Client) (any, error) {
			return first(c.CreateVariable(ctx, p, NewVariable{Key: "SENTRY_DSN", Value: "https://k@h/1"}))
		}},
	} {
		if _, err := tc.call(serve(tc.body)); err != nil {
			t.Errorf("%s refused: %v", name, err)
		}
	}
}

func first[T any](v *T, _ *Response, err error) (any, error) { return v, err }
