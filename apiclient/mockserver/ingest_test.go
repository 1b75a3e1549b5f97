package mockserver

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

const (
	envelopePath  = "/errortracking/api/v1/projects/api/1/envelope"
	collectorPath = "/api/v4/error_tracking/collector/api/1/envelope"
	eventID       = "0123456789abcdef0123456789abcdef"
)

// anEnvelope is what an SDK sends for one error event.
var anEnvelope = `{"event_id":"` + eventID + `","sent_at":"2026-11-23T08:00:00Z"}` + "\n" +
	`{"type":"event"}` + "\n" + `{"event_id":"` + eventID + `","level":"error","platform":"other","message":{"formatted":"errtrack test"}}` + "\n"

// send posts body to path with the key in X-Sentry-Auth (none when empty),
// gzipped when asked.
func send(t *testing.T, ts *httptest.Server, path, key, body string, gz bool) reply {
	t.Helper()
	var rd io.Reader = strings.NewReader(body)
	if gz {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write([]byte(body))
		w.Close()
		rd = &b
	}
	req, _ := http.NewRequest("POST", ts.URL+path, rd)
	req.Header.Set("Content-Type", "application/x-sentry-envelope")
	if key != "" {
		req.Header.Set("X-Sentry-Auth", "Sentry sentry_version=7,sentry_key="+key+", sentry_client=test/1.0")
	}
	if gz {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return reply{resp.StatusCode, resp.Header, string(b)}
}

// Envelopes are read as the Sentry format has them: an item header's
// length counts the payload's bytes, newlines included; without one the
// payload ends at the line's end. A gzipped body is accepted. The event
// id comes from the envelope, else from the event, else is made up.
func TestEnvelopeShapes(t *testing.T) {
	s, ts := newTest(t, Options{})
	key := s.Keys(1)[0].PublicKey
	attachment := "line 1\nline 2"
	id := regexp.MustCompile(`^\{"id":"[0-9a-f]{32}"\}$`)
	for _, tc := range []struct {
		name, path, body string
		gz               bool
		status           int
		body2            string // substring of the answer, or "made up" for a fresh id
	}{
		{"a plain envelope", envelopePath, anEnvelope, false, 200, eventID},
		{"gzipped", envelopePath, anEnvelope, true, 200, eventID},
		{"lengths, a payload with newlines", envelopePath, `{"event_id":"` + eventID + `"}` + "\n" +
			`{"type":"attachment","length":13,"filename":"a.txt"}` + "\n" + attachment + "\n" +
			`{"type":"event","length":10}` + "\n" + `{"x":true}`, false, 200, eventID},
		{"no trailing newline", envelopePath, strings.TrimSuffix(anEnvelope, "\n"), false, 200, eventID},
		{"the event's id", envelopePath, "{}\n" + `{"type":"event"}` + "\n" + `{"event_id":"` + strings.Repeat("a", 32) + `"}`, false, 200, strings.Repeat("a", 32)},
		{"no id anywhere", envelopePath, "{}\n" + `{"type":"event"}` + "\n{}\n", false, 200, "made up"},
		{"a bare event to /store", "/errortracking/api/v1/projects/api/1/store/", `{"message":"hi"}`, false, 200, "made up"},
		{"garbage", envelopePath, "garbage", false, 400, `"detail"`},
		{"a header and nothing else", envelopePath, "{}\n", false, 400, `no item`},
		{"an item header that is not JSON", envelopePath, "{}\nnope\n{}", false, 400, `item header`},
		{"a length beyond the body", envelopePath, "{}\n" + `{"type":"event","length":99}` + "\n{}", false, 400, `length`},
		{"an event that is not JSON", envelopePath, "{}\n" + `{"type":"event"}` + "\nnope", false, 400, `event`},
		{"a store body that is not JSON", "/errortracking/api/v1/projects/api/1/store", "nope", false, 400, `"detail"`},
	} {
		r := send(t, ts, tc.path, key, tc.body, tc.gz)
		ok := r.status == tc.status
		if tc.body2 == "made up" {
			ok = ok && id.MatchString(r.body)
		} else {
			ok = ok && strings.Contains(r.body, tc.body2)
		}
		if !ok {
			t.Errorf("%s: %d %s, want %d %s", tc.name, r.status, r.body, tc.status, tc.body2)
		}
	}
	if n := s.Envelopes(1); n != 7 {
		t.Fatalf("%d envelopes counted, want 7", n)
	}
	r := do(t, ts, "POST", envelopePath, "", "Content-Encoding", "gzip", "X-Sentry-Auth", "Sentry sentry_key="+key, "body", "not gzip")
	if r.status != 400 || r.body != `{"detail":"the body is not gzip"}` {
		t.Fatalf("a broken gzip: %d %s", r.status, r.body)
	}
}

// The ingestion a release has: the collector from 14.1 until it was
// removed in 16.1, the current path from 16.1. The other is the catch-all.
func TestIngestionPathsByRelease(t *testing.T) {
	for _, tc := range []struct {
		version            string
		current, collector int
	}{
		{"14.0", 404, 404},
		{"14.3", 404, 200},
		{"16.0", 404, 200},
		{"16.1", 200, 404},
		{"", 200, 404},
	} {
		s, ts := newTest(t, Options{GitLabVersion: tc.version})
		var key string
		if ks := s.Keys(1); len(ks) > 0 {
			key = ks[0].PublicKey
		}
		if r := send(t, ts, envelopePath, key, anEnvelope, false); r.status != tc.current {
			t.Errorf("%s current path: %d %s", tc.version, r.status, r.body)
		}
		if r := send(t, ts, collectorPath, key, anEnvelope, false); r.status != tc.collector {
			t.Errorf("%s collector: %d %s", tc.version, r.status, r.body)
		}
	}
}

// The current backend asks GitLab whether the key may send: the flags on
// and an active key of the project; the settings switch is not consulted.
func TestIngestionRefusals(t *testing.T) {
	s, ts := newTest(t, Options{})
	key := s.Keys(1)[0].PublicKey
	paused := s.Keys(5)[0].PublicKey
	for _, tc := range []struct {
		name, path, key string
		status          int
	}{
		{"no key", envelopePath, "", 401},
		{"unknown key", envelopePath, "glet_00000000000000000000000000000000", 401},
		{"another project's key", "/errortracking/api/v1/projects/api/5/envelope", key, 401},
		{"no such project", "/errortracking/api/v1/projects/api/999/envelope", key, 401},
		{"settings switched off: still accepted", "/errortracking/api/v1/projects/api/5/envelope", paused, 200},
	} {
		if r := send(t, ts, tc.path, tc.key, anEnvelope, false); r.status != tc.status {
			t.Errorf("%s: %d %s", tc.name, r.status, r.body)
		}
	}
	s.mu.Lock()
	s.st.byID[1].Keys[0].Active = false
	s.mu.Unlock()
	if r := send(t, ts, envelopePath, key, anEnvelope, false); r.status != 401 {
		t.Errorf("an inactive key: %d", r.status)
	}
	_, off := newTest(t, Options{NoIntegratedErrorTracking: true})
	offServer := off.Config.Handler.(*Server)
	if r := send(t, off, envelopePath, offServer.Keys(1)[0].PublicKey, anEnvelope, false); r.status != 401 {
		t.Errorf("feature flag off: %d %s", r.status, r.body)
	}
}

// The legacy collector (gitlab-api.md §8): 404 for a project it cannot
// find, for a project whose integrated error tracking is off and for a
// key that is not an active one of the project; 400 without a key; only
// event and transaction items.
func TestCollectorAnswers(t *testing.T) {
	s, ts := newTest(t, Options{GitLabVersion: "15.0"})
	key := s.Keys(1)[0].PublicKey
	paused := s.Keys(5)[0].PublicKey
	transaction := "{}\n" + `{"type":"transaction"}` + "\n{}\n"
	session := "{}\n" + `{"type":"session"}` + "\n{}\n"
	for _, tc := range []struct {
		name, path, key, body string
		status                int
		want                  string
	}{
		{"an event", collectorPath, key, anEnvelope, 200, eventID},
		{"a transaction: accepted, not counted", collectorPath, key, transaction, 200, ""},
		{"a session", collectorPath, key, session, 400, `{"message":"400 Bad Request"}`},
		{"no such project", "/api/v4/error_tracking/collector/api/999/envelope", key, anEnvelope, 404, `{"message":"404 Project Not Found"}`},
		{"settings switched off", "/api/v4/error_tracking/collector/api/5/envelope", paused, anEnvelope, 404, `{"message":"404 Not Found"}`},
		{"another project's key", collectorPath, paused, anEnvelope, 404, `{"message":"404 Not Found"}`},
		{"no key", collectorPath, "", anEnvelope, 400, `{"message":"400 Bad request - Failed to parse sentry request"}`},
		{"garbage", collectorPath, key, "garbage", 400, `{"message":"400 Bad request - Failed to parse sentry request"}`},
	} {
		r := send(t, ts, tc.path, tc.key, tc.body, false)
		if r.status != tc.status || !strings.Contains(r.body, tc.want) {
			t.Errorf("%s: %d %s, want %d %s", tc.name, r.status, r.body, tc.status, tc.want)
		}
	}
	if n := s.Envelopes(1); n != 1 {
		t.Errorf("%d envelopes counted, want 1", n)
	}
	var ok struct{ ID string }
	if r := send(t, ts, collectorPath+"?sentry_key="+key, "", anEnvelope, false); r.status != 200 || json.Unmarshal([]byte(r.body), &ok) != nil {
		t.Errorf("?sentry_key: %d %s", r.status, r.body)
	}
}

// §13: the ingestion endpoint takes events for an active key of the
// project and refuses the others.
func TestIngestion(t *testing.T) {
	s, ts := newTest(t, Options{})
	key := s.Keys(1)[0].PublicKey
	envelope := `{"event_id":"0123456789abcdef0123456789abcdef","sent_at":"2026-11-23T08:00:00Z"}` + "\n" +
		`{"type":"event"}` + "\n" + `{"event_id":"0123456789abcdef0123456789abcdef","level":"error","platform":"other","message":{"formatted":"errtrack test"}}` + "\n"
	post := func(path, auth, body string) reply {
		req, _ := http.NewRequest("POST", ts.URL+path, strings.NewReader(body))
		if auth != "" {
			req.Header.Set("X-Sentry-Auth", "Sentry sentry_key="+auth+", sentry_version=7")
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b strings.Builder
		buf := make([]byte, 512)
		n, _ := resp.Body.Read(buf)
		b.Write(buf[:n])
		return reply{resp.StatusCode, resp.Header, b.String()}
	}
	path := "/errortracking/api/v1/projects/api/1/envelope"
	if r := post(path, key, envelope); r.status != 200 || !strings.Contains(r.body, "0123456789abcdef") {
		t.Fatalf("%d %s", r.status, r.body)
	}
	if r := post(path+"?sentry_key="+key, "", envelope); r.status != 200 {
		t.Fatalf("?sentry_key: %d", r.status)
	}
	for name, tc := range map[string][2]string{
		"unknown key":         {path, "glet_00000000000000000000000000000000"},
		"another project":     {"/errortracking/api/v1/projects/api/5/envelope", key},
		"inactive project's?": {"/errortracking/api/v1/projects/api/2/envelope", key},
	} {
		if r := post(tc[0], tc[1], envelope); r.status != 401 {
			t.Errorf("%s: %d", name, r.status)
		}
	}
	if r := post(path, key, "garbage"); r.status != 400 {
		t.Errorf("garbage: %d", r.status)
	}
	do(t, ts, "DELETE", keys1+"/1", TokenMaintainer)
	if r := post(path, key, envelope); r.status != 401 {
		t.Errorf("deleted key: %d", r.status)
	}
	if n := s.Envelopes(1); n != 2 {
		t.Fatalf("%d envelopes counted", n)
	}
}
