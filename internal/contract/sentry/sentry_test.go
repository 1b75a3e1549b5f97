package sentry

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/errtrack/errtrack/apiclient/mockserver/mocksentry"
)

const anEnvelope = `{"event_id":"6c4b29a8d1e24f0f9a1b3c5d7e9f0a1b"}` + "\n" + `{"type":"event"}` + "\n{}\n"

// onMock sends a fixture's request to a new mock Sentry, its tokens and
// public keys swapped for the mock's own (by the key's name), and returns
// the answer. A rate-limited fixture first uses up the key's limit on the
// mock, as Sentry's key had. The gone set's project is one the mock does
// not have; the migrate set's new project gets the mock's own ID.
func onMock(t *testing.T, set string, ex Exchange, req Request) (*http.Response, any) {
	t.Helper()
	ss := mocksentry.New(mocksentry.Options{})
	ts := httptest.NewServer(ss)
	t.Cleanup(ts.Close)
	if set == "moved" && !ss.RenameProject("demo", "legacy-api", "legacy-api-v2") {
		t.Fatal("renaming the mock's project")
	}
	labels := func() *strings.Replacer {
		mine := map[string]string{}
		for _, k := range append(ss.Keys("demo", "legacy-api"), ss.Keys("demo", "legacy-api-v2")...) {
			mine[k.Label] = k.Public
		}
		for _, k := range ss.Keys("demo", "demo-web-shop") {
			mine["migrated "+k.Label] = k.Public
		}
		pairs := []string{Production, mine["Production"], Staging, mine["Staging"], Created, mine["New"]}
		if id := ss.ProjectID("demo", "demo-web-shop"); id != 0 {
			pairs = append(pairs, Default, mine["migrated Default"], "/api/4/", "/api/"+strconv.FormatInt(id, 10)+"/")
		}
		if set == "gone" {
			pairs = append(pairs, "/projects/demo/legacy-api/", "/projects/demo/no-such-project/")
		}
		return strings.NewReplacer(pairs...)
	}
	swap := labels()
	token := map[string]string{Token: mocksentry.TokenAdmin, ExpiredToken: mocksentry.TokenExpired, OrgCIToken: mocksentry.TokenOrgCI}[req.Token]
	if token == "" {
		token = req.Token
	}
	do := func(method, path, key string, body []byte) *http.Response {
		r, _ := http.NewRequest(method, ts.URL+path, bytes.NewReader(body))
		if token != "" && key == "" {
			r.Header.Set("Authorization", "Bearer "+token)
		}
		if key != "" {
			r.Header.Set("X-Sentry-Auth", "Sentry sentry_key="+swap.Replace(key)+", sentry_version=7")
		}
		c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		resp, err := c.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	if ex.After != "" {
		// The state the fixture answers in: its After request made first.
		prior, ok := byName(t, set, ex.After)
		if !ok {
			t.Fatalf("%s: after %q, no such fixture", ex.Name, ex.After)
		}
		b, _ := json.Marshal(prior.Requests[0].Body)
		r, _ := http.NewRequest(prior.Requests[0].Method, ts.URL+prior.Requests[0].Path, bytes.NewReader(b))
		r.Header.Set("Authorization", "Bearer "+mocksentry.TokenAdmin)
		resp, err := http.DefaultClient.Do(r)
		if err != nil || resp.StatusCode != prior.Status {
			t.Fatalf("%s: making the state of %s on the mock: %v %v", ex.Name, ex.After, resp, err)
		}
		resp.Body.Close()
		swap = labels()
	}
	if ex.Status == http.StatusTooManyRequests {
		limit := []byte(`{"rateLimit":{"count":1,"window":3600}}`)
		r, _ := http.NewRequest(http.MethodPut, ts.URL+"/api/0/projects/demo/legacy-api/keys/"+swap.Replace(req.SentryKey)+"/", bytes.NewReader(limit))
		r.Header.Set("Authorization", "Bearer "+mocksentry.TokenAdmin)
		if resp, err := http.DefaultClient.Do(r); err != nil || resp.StatusCode != 200 {
			t.Fatalf("setting the mock key's limit: %v %v", resp, err)
		}
		do(http.MethodPost, req.Path, req.SentryKey, []byte(anEnvelope)).Body.Close()
	}
	path := swap.Replace(req.Path)
	q := url.Values{}
	for k, v := range req.Query {
		q.Set(k, v)
	}
	if req.Method == http.MethodGet && strings.HasSuffix(path, "/keys/") {
		q.Set("per_page", "100") // as errtrack lists
	}
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	var body []byte
	switch {
	case req.SentryKey != "":
		body = []byte(anEnvelope)
	case req.Body != nil:
		body, _ = json.Marshal(req.Body)
	}
	resp := do(req.Method, path, req.SentryKey, body)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var got any
	if len(bytes.TrimSpace(b)) > 0 {
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s %s: %v: %s", req.Method, path, err, b)
		}
	}
	return resp, Fill(got, ts.URL)
}

var (
	digits    = regexp.MustCompile(`[0-9]+`)
	publicKey = regexp.MustCompile(`[0-9a-f]{32}`)
)

// byName finds a fixture of a set by its file name.
func byName(t *testing.T, set, name string) (Exchange, bool) {
	t.Helper()
	exchanges, err := Load(set)
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range exchanges {
		if ex.Name == set+"/"+name {
			return ex, true
		}
	}
	return Exchange{}, false
}

// The mock Sentry answers every contract fixture as Sentry and Relay do:
// the same status, the same fields with the same types and nothing more,
// the same headers (numbers aside where they are the mock's own: a
// Retry-After, a Link's cursors). So the mock cannot drift from the
// fixtures, nor the fixtures from the mock, without a test failing.
func TestMockAnswersAsTheFixtures(t *testing.T) {
	var exchanges []Exchange
	for _, set := range Sets() {
		ex, err := Load(set)
		if err != nil {
			t.Fatal(err)
		}
		exchanges = append(exchanges, ex...)
	}
	checked := 0
	for _, ex := range exchanges {
		if ex.Aux {
			continue
		}
		set, _, _ := strings.Cut(ex.Name, "/")
		for _, req := range ex.Requests {
			resp, got := onMock(t, set, ex, req)
			if resp.StatusCode != ex.Status {
				t.Errorf("%s %s: %d, Sentry %d (%s)", req.Method, req.Path, resp.StatusCode, ex.Status, ex.Name)
				continue
			}
			base := "http://" + resp.Request.URL.Host
			if ex.Body == nil && got != nil {
				t.Errorf("%s %s: a body where Sentry sends none (%s)", req.Method, req.Path, ex.Name)
			}
			for _, d := range Shape(Fill(ex.Body, base), got) {
				t.Errorf("%s %s: %s (%s)", req.Method, req.Path, d, ex.Name)
			}
			for k, v := range ex.Headers {
				want, have := Fill(v, base).(string), resp.Header.Get(k)
				if k == "Retry-After" || k == "X-Sentry-Rate-Limits" || k == "Link" {
					want, have = digits.ReplaceAllString(want, "N"), digits.ReplaceAllString(have, "N")
				}
				if k == "Location" { // a key's ID in it is the mock's own
					want, have = publicKey.ReplaceAllString(want, "KEY"), publicKey.ReplaceAllString(have, "KEY")
				}
				if have != want {
					t.Errorf("%s %s: %s %q, Sentry %q (%s)", req.Method, req.Path, k, have, want, ex.Name)
				}
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d requests checked", checked)
	}
}

// Shape finds what it is for: a missing field, an extra one, another
// type, another length; values aside.
func TestShape(t *testing.T) {
	want := []any{map[string]any{"id": "a", "b": nil, "n": map[string]any{"c": true}}}
	for _, tc := range []struct {
		got  any
		diff string
	}{
		{[]any{map[string]any{"id": "z", "b": 3.0, "n": map[string]any{"c": false}}}, ""},
		{[]any{map[string]any{"id": "z", "b": nil}}, "$[0].n: missing"},
		{[]any{map[string]any{"id": "z", "b": nil, "n": map[string]any{"c": true}, "extra": 1.0}}, "$[0].extra: a field Sentry does not send"},
		{[]any{map[string]any{"id": 1.0, "b": nil, "n": map[string]any{"c": true}}}, "$[0].id: a number, Sentry's a string"},
		{[]any{}, "$: 0 items, Sentry's 1"},
	} {
		if got := strings.Join(Shape(want, tc.got), "; "); got != tc.diff {
			t.Errorf("Shape = %q, want %q", got, tc.diff)
		}
	}
}

// Every fixture names the Sentry or Relay source it was shaped from, and
// a request no fixture answers is remembered, not guessed at.
func TestFixturesCiteTheirSource(t *testing.T) {
	sets := Sets()
	if len(sets) < 3 {
		t.Fatalf("fixture sets: %v", sets)
	}
	var exchanges []Exchange
	for _, set := range sets {
		ex, err := Load(set)
		if err != nil {
			t.Fatal(err)
		}
		exchanges = append(exchanges, ex...)
	}
	for _, ex := range exchanges {
		if !strings.Contains(ex.Source, "getsentry/sentry src/") && !strings.Contains(ex.Source, "getsentry/relay relay-server/") {
			t.Errorf("%s cites no source file: %q", ex.Name, ex.Source)
		}
	}
	s, err := NewServer("keys")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/api/0/projects/demo/legacy-api/keys/", nil)
	req.Header.Set("Authorization", "Bearer "+Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || len(s.Unmatched()) != 0 {
		t.Fatalf("the listing: %d %v", resp.StatusCode, s.Unmatched())
	}
	resp, err = http.Get(ts.URL + "/api/0/projects/demo/legacy-api/keys/") // no token: no fixture
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 || len(s.Unmatched()) != 1 {
		t.Fatalf("%d %v", resp.StatusCode, s.Unmatched())
	}
}

// An exchange with After answers once the one it names was served: the
// listing after a create holds the new key, not before.
func TestAfterAnswersTheNewState(t *testing.T) {
	s, err := NewServer("keys")
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	call := func(method, body string) []any {
		req, _ := http.NewRequest(method, ts.URL+"/api/0/projects/demo/legacy-api/keys/", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+Token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out any
		json.NewDecoder(resp.Body).Decode(&out)
		list, _ := out.([]any)
		return list
	}
	if n := len(call(http.MethodGet, "")); n != 2 {
		t.Fatalf("before the create: %d keys", n)
	}
	call(http.MethodPost, `{"name":"New"}`)
	if n := len(call(http.MethodGet, "")); n != 3 || len(s.Unmatched()) != 0 {
		t.Fatalf("after the create: %d keys, unmatched %v", n, s.Unmatched())
	}
}
