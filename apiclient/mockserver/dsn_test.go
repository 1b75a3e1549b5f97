package mockserver

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// A server behind another's TLS listener issues https DSNs.
func TestDSNSchemeOfTheRequest(t *testing.T) {
	s, _ := New(Options{})
	ts := httptest.NewTLSServer(s)
	defer ts.Close()
	r := do(t, ts, "GET", keys1, TokenMaintainer)
	if !strings.Contains(r.body, `"errtracker_dsn":"https://glet_`) {
		t.Fatal(r.body)
	}
}
