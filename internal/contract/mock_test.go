package contract

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/errtrack/errtrack/apiclient/mockserver"
)

// mockAnswer sends one fixture request to the mock as the demo user.
func mockAnswer(t *testing.T, ts *httptest.Server, req Request) (int, http.Header, any) {
	t.Helper()
	u := ts.URL + req.Path
	if len(req.Query) > 0 {
		q := make([]string, 0, len(req.Query))
		for k, v := range req.Query {
			q = append(q, k+"="+v)
		}
		u += "?" + strings.Join(q, "&")
	}
	r, err := http.NewRequest(req.Method, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("PRIVATE-TOKEN", mockserver.TokenMaintainer)
	resp, err := ts.Client().Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var body any
	if err := json.Unmarshal(b, &body); err != nil {
		t.Fatalf("%s %s: %v: %s", req.Method, req.Path, err, b)
	}
	return resp.StatusCode, resp.Header, body
}

// The mock answers every contract fixture as GitLab does: the same
// status, the same fields with the same types and nothing more, the same
// projects in the same order. Its seed is the world the fixtures
// describe.
func TestMockAnswersAsTheFixtures(t *testing.T) {
	srv, err := mockserver.New(mockserver.Options{FieldNames: "gitlab"})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	exchanges, err := Load("ops")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, ex := range exchanges {
		if ex.Aux {
			continue
		}
		for _, req := range ex.Requests {
			status, _, body := mockAnswer(t, ts, req)
			if status != ex.Status {
				t.Errorf("%s %s %v: %d, GitLab %d (%s)", req.Method, req.Path, req.Query, status, ex.Status, ex.Name)
				continue
			}
			for _, d := range Compare(Fill(ex.Body, ts.URL), body) {
				t.Errorf("%s %s %v: %s (%s)", req.Method, req.Path, req.Query, d, ex.Name)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d requests checked", checked)
	}
}

// The ApplicationRateLimiter 429 of the group routes, as GitLab sends it:
// the body, Retry-After the interval, no RateLimit-* of its own.
func TestMockRateLimitedAsTheFixture(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 10, 0, time.UTC)
	srv, err := mockserver.New(mockserver.Options{GroupAPILimit: 1, GroupProjectsAPILimit: 1, Now: func() time.Time { return at }})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	exchanges, err := Load("limited")
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range exchanges {
		for _, req := range ex.Requests {
			mockAnswer(t, ts, req) // the one the minute allows
			status, h, body := mockAnswer(t, ts, req)
			want, _ := json.Marshal(ex.Body)
			got, _ := json.Marshal(body)
			if status != ex.Status || string(got) != string(want) {
				t.Errorf("%s: %d %s, GitLab %d %s", req.Path, status, got, ex.Status, want)
			}
			for k, v := range ex.Headers {
				if h.Get(k) != v {
					t.Errorf("%s: %s %q, GitLab %q", req.Path, k, h.Get(k), v)
				}
			}
			for k := range h {
				if strings.HasPrefix(strings.ToLower(k), "ratelimit") {
					t.Errorf("%s: %s on an ApplicationRateLimiter 429", req.Path, k)
				}
			}
		}
	}
}

// Compare finds what it is for: a missing field, an extra one, another
// type, other ids.
func TestCompare(t *testing.T) {
	want := []any{map[string]any{"id": 1.0, "a": "x", "b": nil, "n": map[string]any{"c": true}}}
	for _, tc := range []struct {
		got  any
		diff string
	}{
		{[]any{map[string]any{"id": 1.0, "a": "y", "b": 3.0, "n": map[string]any{"c": false}}}, ""},
		{[]any{map[string]any{"id": 1.0, "a": "y", "b": nil}}, "$[0].n: missing"},
		{[]any{map[string]any{"id": 1.0, "a": "y", "b": nil, "n": map[string]any{"c": true}, "permissions": nil}}, "$[0].permissions: a field GitLab does not send"},
		{[]any{map[string]any{"id": 1.0, "a": 1.0, "b": nil, "n": map[string]any{"c": true}}}, "$[0].a: a number, GitLab's a string"},
		{[]any{map[string]any{"id": 2.0, "a": "x", "b": nil, "n": map[string]any{"c": true}}}, "$: ids 2 , GitLab's 1 "},
	} {
		got := strings.Join(Compare(want, tc.got), "; ")
		if got != tc.diff {
			t.Errorf("Compare = %q, want %q", got, tc.diff)
		}
	}
}

// Every fixture names the source it was read from, and a request no
// fixture answers is GitLab's 404, remembered.
func TestFixturesCiteTheirSource(t *testing.T) {
	for _, set := range []string{"ops", "limited"} {
		exchanges, err := Load(set)
		if err != nil {
			t.Fatal(err)
		}
		for _, ex := range exchanges {
			if !strings.Contains(ex.Source, "lib/") && !strings.Contains(ex.Source, "app/") {
				t.Errorf("%s cites no source file: %q", ex.Name, ex.Source)
			}
		}
	}
	s, err := NewServer("ops")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/api/v4/groups/ops/projects?min_access_level=20")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 || len(s.Unmatched()) != 1 {
		t.Fatalf("%d %v", resp.StatusCode, s.Unmatched())
	}
}
