package apiclient

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
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
