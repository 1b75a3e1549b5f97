package mockserver

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// With a SentryURL the demo's Sentry-backed project names that Sentry in
// its settings, the organisation and project slugs kept.
func TestSentryURLInSettings(t *testing.T) {
	s, err := New(Options{SentryURL: "http://127.0.0.1:9999/"})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	defer ts.Close()
	req, _ := http.NewRequest(http.MethodGet, ts.URL+"/api/v4/projects/3/error_tracking/settings", nil)
	req.Header.Set("PRIVATE-TOKEN", TokenMaintainer)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(b), `"api_url":"http://127.0.0.1:9999/api/0/projects/demo/legacy-api/"`) {
		t.Fatalf("%s", b)
	}
}
