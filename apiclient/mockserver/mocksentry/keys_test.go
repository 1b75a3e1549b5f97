package mocksentry

import (
	"encoding/json"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// With a DSN host chosen, the keys' DSNs name it (as SENTRY_PUBLIC_ENDPOINT
// or an o<org>. ingest subdomain make Sentry do) while links stay on the
// API's address.
func TestDSNHostChosen(t *testing.T) {
	s := New(Options{PublicURL: "https://sentry.example.com", DSNHost: "o42.ingest.us.sentry.io"})
	ts := httptest.NewServer(s)
	defer ts.Close()
	resp, body := get(t, ts, "/api/0/projects/demo/legacy-api/keys/?per_page=1", TokenRead)
	var page []struct {
		Public string            `json:"public"`
		ID     int64             `json:"projectId"`
		DSN    map[string]string `json:"dsn"`
	}
	if err := json.Unmarshal([]byte(body), &page); err != nil || len(page) != 1 {
		t.Fatalf("%v %s", err, body)
	}
	want := "https://" + page[0].Public + "@o42.ingest.us.sentry.io/" + strconv.FormatInt(page[0].ID, 10)
	if page[0].DSN["public"] != want || !strings.HasPrefix(page[0].DSN["csp"], "https://o42.ingest.us.sentry.io/api/") {
		t.Fatalf("dsn %v, want public %s", page[0].DSN, want)
	}
	if !strings.Contains(resp.Header.Get("Link"), "<https://sentry.example.com/api/0/") {
		t.Fatalf("Link %s", resp.Header.Get("Link"))
	}
	if got := s.DSN("demo", "legacy-api", "Production"); !strings.Contains(got, "@o42.ingest.us.sentry.io/") {
		t.Fatalf("DSN() = %s", got)
	}
}
